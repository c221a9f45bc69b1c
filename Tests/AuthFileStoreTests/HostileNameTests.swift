// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
@testable import AuthFileStore
import Foundation
import Testing

@Suite struct HostileNameTests {
    static let names = [
        "../../etc", "../../etc/passwd", "/", "", ".", "..", "a/b", "Alice", "alice", "ALICE",
        String(repeating: "x", count: 300), String(repeating: "名", count: 120), "名前", "🙂",
        "a\u{0}b", "\u{0}", ".tmp-1234", ".lock", ".locks", "x.rec", "x", "%2F", "e\u{301}",
    ]

    @Test func hostileNamesRoundTripInEveryPositionAndStayInside() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let store = try FileCredentialStore(directory: folder.appendingPathComponent("store"))
            var written: [CredentialKey: String] = [:]
            for (index, name) in Self.names.enumerated() {
                written[CredentialKey(namespace: name, account: name, item: name)] = "same-\(index)"
                written[CredentialKey(namespace: "fixed", account: name, item: "credential")] = "account-\(index)"
                written[CredentialKey(namespace: "fixed", account: "owner", item: name)] = "item-\(index)"
            }
            for (key, text) in written { try await store.put(TestFiles.envelope(text), for: key) }

            for (key, text) in written {
                #expect(try await store.get(key)?.payload == Data(text.utf8), "\(String(reflecting: key)) did not read back its own record")
            }
            let namespaces = try await store.namespaces()
            #expect(namespaces == (Self.names + ["fixed"]).sorted())
            #expect(try await store.accounts(in: "fixed") == (Self.names + ["owner"]).sorted())
            #expect(try await store.items(of: AccountKey(namespace: "fixed", account: "owner")) == Self.names.sorted())
            for name in Self.names {
                #expect(try await store.items(of: AccountKey(namespace: name, account: name)) == [name])
            }

            // Every file is inside the store directory, has a lower-case name of at most 255
            // bytes, and every record has a file of its own.
            let root = try #require(TestFiles.realPath(store.directory.path))
            let paths = try TestFiles.allPaths(under: store.directory)
            for relative in paths {
                let real = try #require(TestFiles.realPath(store.directory.path + "/" + relative))
                #expect(real.hasPrefix(root + "/"), "\(relative) resolves outside the store: \(real)")
                let name = (relative as NSString).lastPathComponent
                #expect(name.utf8.count <= 255)
                #expect(name == name.lowercased(), "\(name) depends on letter case")
            }
            #expect(paths.filter { $0.hasSuffix(".rec") }.count == written.count)
            // Nothing was written next to the store directory.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["store"])
        }
    }

    @Test func canonicallyEqualNamesShareOneRecord() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let store = try FileCredentialStore(directory: folder.appendingPathComponent("store"))
            let decomposed = CredentialKey(namespace: "n", account: "Rene\u{301}", item: "credential")
            let precomposed = CredentialKey(namespace: "n", account: "Ren\u{E9}", item: "credential")
            #expect(decomposed == precomposed)  // Swift's String equality, which the store follows
            try await store.put(TestFiles.envelope("one"), for: decomposed)
            #expect(try await store.get(precomposed)?.payload == Data("one".utf8))
            #expect(try await store.accounts(in: "n").count == 1)
        }
    }

    @Test func fileNamesDecodeOnlyFromTheirOwnEncoding() {
        for name in Self.names {
            let encoded = FileNameCodec.encode(name)
            switch FileNameCodec.decode(encoded) {
            case .name(let decoded): #expect(decoded == name && name.utf8.count <= FileNameCodec.spelledOutLimit)
            case .digest: #expect(name.utf8.count > FileNameCodec.spelledOutLimit)
            case nil: Issue.record("\(encoded) did not decode")
            }
        }
        for foreign in [".lock", ".tmp-ab", "X41", "x4", "x4G", "xff", "x41.rec", "h00", "", "y41"] {
            #expect(FileNameCodec.decode(foreign) == nil, "\(foreign) decoded as a component")
        }
    }

    @Test func longNamesUseTheSHA256OfTheirBytes() {
        // FIPS 180-4 examples, so that long-name files keep their names across versions.
        #expect(FileNameCodec.hex(SHA256Digest.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(FileNameCodec.hex(SHA256Digest.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(FileNameCodec.hex(SHA256Digest.hash(Array(twoBlocks.utf8))) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let long = String(repeating: "x", count: 300)
        #expect(FileNameCodec.encode(long) == "h" + FileNameCodec.hex(SHA256Digest.hash(Array(long.utf8))))
    }
}
