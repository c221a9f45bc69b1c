public import AuthCore

extension AuthContainer {
    /// Sends every request of this container's clients through `transport`.
    public func useHTTPClient(_ transport: HTTPClientTransport) {
        override(TransportKey.self, with: transport)
    }
}
