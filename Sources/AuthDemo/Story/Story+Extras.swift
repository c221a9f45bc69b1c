// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

extension Story {
    /// The steps of the plug-in modules: MFA, cookie sessions, signing, OAuth 2.0, caching,
    /// migration, a generated OpenAPI client.
    func extraSteps(alice: AccountClient<BearerStrategy>) async throws {
        await totpSignInStep()
        await cookieSessionStep()
        await signedRequestsStep()
        await clientCredentialsStep()
        await deviceSignInStep()
        await cachedResponsesStep()
        await migrationStep()
        await openAPIStep(alice: alice)
    }
}
