// swift-tools-version:6.1
import PackageDescription

/// One list of settings for every target: Swift 6 mode plus the upcoming features that keep
/// imports and existentials explicit.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "AuthKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "AuthCore", targets: ["AuthCore"]),
        .library(name: "AuthHTTPClient", targets: ["AuthHTTPClient"]),
        .library(name: "AuthTesting", targets: ["AuthTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .target(
            name: "AuthCore",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthHTTPClient",
            dependencies: [
                "AuthCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AuthTesting",
            dependencies: ["AuthCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthCoreTests",
            dependencies: [
                "AuthCore", "AuthTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthHTTPClientTests",
            dependencies: [
                "AuthCore", "AuthHTTPClient",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
