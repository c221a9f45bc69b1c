import AuthCore
import AuthSQLiteStore
import AuthTesting
import Foundation
import Testing

@Suite struct ConformanceTests {
    @Test func passesTheCredentialStoreConformanceSuite() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let passed = try await CredentialStoreConformance.run {
                try await SQLiteCredentialStore.open(at: directory.appendingPathComponent("\(UUID().uuidString).sqlite").path)
            }
            #expect(passed == CredentialStoreConformance.checkNames)
        }
    }
}
