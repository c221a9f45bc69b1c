// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Synchronization

/// The HMAC state of the last derived SigV4 signing key of one signer, by scope day.
///
/// Deriving the key costs four HMACs, and setting an HMAC up with a key costs two more hash
/// blocks; the key only changes when the day changes (a signer's credentials, region and service
/// are fixed), so AWS's SDKs cache it the same way. Keeping the keyed HMAC state, not the key,
/// leaves one HMAC's message blocks per signature. The key never appears in a description or a
/// mirror.
final class SigV4KeyCache: Sendable, CustomReflectable {
    private let last = Mutex<(day: ArraySlice<UInt8>, mac: KeyedSHA256)?>(nil)

    /// The keyed HMAC for `day`, derived by `derive` when the cached one is for another day.
    func hmac(day: ArraySlice<UInt8>, derive: (String) -> SymmetricKey) -> KeyedSHA256 {
        if let cached = last.withLock({ $0 }), cached.day == day { return cached.mac }
        let mac = KeyedSHA256(key: derive(String(decoding: day, as: UTF8.self)))
        last.withLock { $0 = (day, mac) }
        return mac
    }

    var customMirror: Mirror { Mirror(self, children: []) }
}
