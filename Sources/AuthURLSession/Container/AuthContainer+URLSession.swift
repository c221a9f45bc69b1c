public import AuthCore

extension AuthContainer {
    /// Sends every request of this container's clients through `transport`.
    public func useURLSession(_ transport: URLSessionTransport) {
        override(TransportKey.self, with: transport)
    }
}
