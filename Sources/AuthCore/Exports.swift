// The types AuthCore's API is written in: `HTTPFields`, `HTTPRequest.Method` and
// `HTTPResponse.Status` come from swift-http-types. Re-exported so that `import AuthCore` is
// enough to name them (`headerFields: [.accept: "application/json"]`), without adding the
// package to your own manifest.
@_exported public import HTTPTypes
