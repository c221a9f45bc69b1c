// AuthOAuth2's per-request and per-sign-in cryptography (issue 20), each paired in the same
// iteration with the bare swift-crypto operation it is built on:
// - a DPoP proof (ES256: header with the public JWK, claims with jti, htm, htu, iat and ath)
//   against a bare P-256 signature over a message of the same size;
// - an ID token validation (ES256, JWKS already fetched: signature, iss, aud, exp, iat, nonce)
//   against a bare P-256 verification of the same token's signing input.
import AuthCore
import AuthOAuth2
import Benchmark
import BenchmarkSupport
import Crypto
import Foundation
import JWTKit

let issuer = "https://issuer.example"
let clientID = "app"
let resourceURL = URL(string: "https://api.example.com/v1/orders?page=2")!
let accessToken = "eyJhbGciOiJFUzI1NiJ9.benchmark-access-token.0123456789abcdefghijklmnopqrstuvwxyz"

/// A client whose provider's keys are served, once, by a transport that answers at once.
func validatingClient(jwks: String) -> OAuth2Client {
    let metadata = AuthorizationServerMetadata(issuer: URL(string: issuer)!, tokenEndpoint: URL(string: "\(issuer)/token")!, jwksURI: URL(string: "\(issuer)/jwks")!)
    let transport = ClosureTransport { _ in AuthResponse(status: .ok, body: Data(jwks.utf8)) }
    return OAuth2Client(provider: OAuth2Provider(metadata: metadata), clientID: clientID, transport: transport)
}

/// An ES256 ID token, the JWKS with its key, the raw key for the baseline.
func signedIDToken() async throws -> (token: String, jwks: String, key: P256.Signing.PrivateKey) {
    let key = P256.Signing.PrivateKey()
    let keys = JWTKeyCollection()
    await keys.add(ecdsa: try ES256PrivateKey(backing: key), kid: "k1")
    let now = Date()
    let claims = IDTokenClaims(issuer: issuer, subject: "alice", audience: [clientID], expiresAt: now.addingTimeInterval(3_600), issuedAt: now, nonce: "n-0123456789")
    let token = try await keys.sign(claims, kid: "k1")
    let x963 = key.publicKey.x963Representation
    func b64(_ data: Data) -> String { data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "") }
    let jwks = #"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(b64(x963[1..<33]))","y":"\#(b64(x963[33..<65]))","kid":"k1","alg":"ES256"}]}"#
    return (token, jwks, key)
}

let benchmarks: @Sendable () -> Void = {
    var paired = Benchmark.Configuration.suite(.microseconds, scaling: .one, warmup: 5, maxDuration: .seconds(2), maxIterations: 2_000)
    paired.metrics = Paired.metrics

    Benchmark("DPoP proof (ES256, with ath) vs a bare P-256 signature", configuration: paired) { (benchmark: Benchmark, setup: (DPoP, P256.Signing.PrivateKey)) in
        let (dpop, key) = setup
        let message = Data(repeating: 0x61, count: 420)  // about a proof's signing input
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(try key.signature(for: identity(message))) }
        } subject: {
            for _ in benchmark.scaledIterations { blackHole(try await dpop.proof(method: "GET", url: resourceURL, accessToken: accessToken)) }
        }
    } setup: {
        (try await DPoP(key: DPoPKey()), P256.Signing.PrivateKey())
    }

    Benchmark("ID token validation (ES256, cached JWKS) vs a bare P-256 verification", configuration: paired) { (benchmark: Benchmark, setup: (OAuth2Client, String, P256.Signing.PublicKey, P256.Signature, Data)) in
        let (client, token, publicKey, signature, input) = setup
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(publicKey.isValidSignature(signature, for: identity(input))) }
        } subject: {
            for _ in benchmark.scaledIterations { blackHole(try await client.validateIDToken(token, nonce: "n-0123456789")) }
        }
    } setup: {
        let (token, jwks, key) = try await signedIDToken()
        let client = validatingClient(jwks: jwks)
        _ = try await client.validateIDToken(token, nonce: "n-0123456789")  // the JWKS fetched once, then cached
        let parts = token.split(separator: ".")
        let input = Data("\(parts[0]).\(parts[1])".utf8)
        let signature = try key.signature(for: input)
        return (client, token, key.publicKey, signature, input)
    }
}
