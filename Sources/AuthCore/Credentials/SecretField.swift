import HTTPTypes
import Synchronization

/// A header field that carries a secret (`Authorization: Bearer …`), built and validated once
/// when its credential is made, so that authorizing a request only appends it.
///
/// Redacted like ``Secret``: its description and mirror never show the value, so a credential
/// holding one still dumps without its token.
struct SecretField: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The field.
    let field: HTTPField
    /// Header fields of only this one: what a request without fields gets, sharing this
    /// storage instead of allocating its own (`HTTPFields.append` costs about 600 instructions,
    /// through the generic `RangeReplaceableCollection` path).
    private let alone: HTTPFields

    /// The request the field was last put on, and the request that made (see ``set(on:)``).
    /// Shared by the copies of this field.
    private let lastSet = LastSet()

    /// Builds the field; characters a field value may not hold become spaces, as `HTTPField` does.
    init(_ name: HTTPField.Name, value: String) {
        field = HTTPField(name: name, value: value)
        var alone = HTTPFields()
        alone.append(field)
        self.alone = alone
    }

    /// Puts the field on `request`, replacing any field of the same name.
    ///
    /// A client calling one endpoint sends the same request again and again, in one storage
    /// (`send(.get, url)`: the client's request from its recent head, see
    /// ``AuthRequest/isOnSharedHead``). Putting the field on it copied that storage every time, an
    /// allocation and a dozen retains (about 450 instructions). The request that made is kept
    /// from the second time a storage comes in a row, and the same request gets it again: one
    /// storage for all of them, which a middleware's change to one copies (copy on write). A
    /// request with a storage of its own is changed in place, as before.
    func set(on request: inout AuthRequest) {
        guard request.isOnSharedHead, !isKnownUniquelyReferenced(&request.storage) else { return put(on: &request) }
        switch lastSet.made(from: request.storage) {
        case .made(let made):
            request = made
        case .again(let storage):
            put(on: &request)
            lastSet.keep(request, madeFrom: storage)
        case .first:
            put(on: &request)
        }
    }

    /// Puts the field on `request`, in place when its storage is its own.
    private func put(on request: inout AuthRequest) {
        if request.head.headerFields.isEmpty {
            request.head.headerFields = alone
        } else if request.head.headerFields.contains(field.name) {
            request.head.headerFields[fields: field.name] = [field]
        } else {
            request.head.headerFields.append(field)
        }
    }

    /// Names the field, never its value.
    var description: String { "\(field.name): <redacted>" }
    /// Names the field, never its value.
    var debugDescription: String { description }
    /// A mirror with no children.
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// The storage of the request a ``SecretField`` was last put on and, from its second time in a
/// row, the request that made. Holding the storage keeps it from being freed and coming back, at
/// the same address, with other values: the same storage is the same request.
private final class LastSet: Sendable {
    private struct State {
        var input: AuthRequest.Storage?
        var made: AuthRequest?
    }

    /// What is known of a storage.
    enum Known {
        /// It came before, and this is what putting the field on it made.
        case made(AuthRequest)
        /// It came just before, and nothing is kept for it yet.
        case again(AuthRequest.Storage)
        /// It did not come just before (it is noted now).
        case first
    }

    private let state = Mutex(State())

    /// What is known of `storage`; noted as the last one when it is not.
    func made(from storage: AuthRequest.Storage) -> Known {
        let (known, replaced) = state.withLock { state -> (Known, State?) in
            if state.input === storage { return (state.made.map(Known.made) ?? .again(storage), nil) }
            defer { state = State(input: storage, made: nil) }
            return (.first, state)
        }
        // What was replaced is released here, after the lock.
        _ = replaced
        return known
    }

    /// Keeps `made`, what putting the field on `storage`'s request made, while `storage` is the last one.
    func keep(_ made: AuthRequest, madeFrom storage: AuthRequest.Storage) {
        state.withLock { state in
            if state.input === storage, state.made == nil { state.made = made }
        }
    }
}
