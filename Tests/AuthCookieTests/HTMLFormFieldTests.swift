// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

@testable import AuthCookie
import Testing

/// The CSRF token of a login page, as the frameworks' own templates write it.
struct HTMLFormFieldTests {
    @Test(arguments: [
        // Django's {% csrf_token %}.
        (#"<form method="post"><input type="hidden" name="csrfmiddlewaretoken" value="AbC123xyz"><input name="username"></form>"#, "csrfmiddlewaretoken", "AbC123xyz"),
        // Flask-WTF's {{ form.csrf_token }}: id first, value with a dot and dashes.
        (#"<input id="csrf_token" name="csrf_token" type="hidden" value="ImFi.Zz-_9">"#, "csrf_token", "ImFi.Zz-_9"),
        // Rails: the meta tag in the head, and a value with escaped characters.
        (#"<meta name="csrf-param" content="authenticity_token" /><meta name="csrf-token" content="a&#x2F;b&amp;c==" />"#, "csrf-token", "a/b&c=="),
        // Single quotes, upper case, no quotes, line breaks between attributes.
        ("<INPUT TYPE=hidden\n VALUE='v1' NAME='t'>", "t", "v1"),
        ("<input name=t value=bare-value>", "t", "bare-value"),
        // The first of two fields wins; an empty value is a value.
        (#"<input name="t" value=""><input name="t" value="second">"#, "t", ""),
    ] as [(String, String, String)])
    func readsTheFieldsValue(html: String, name: String, value: String) {
        #expect(HTMLFormField.value(named: name, in: Array(html.utf8)) == value)
    }

    @Test(arguments: [
        #"<input name="csrfmiddlewaretokenx" value="no">"#,  // another name
        #"<div name="t" value="no"></div>"#,  // not an input
        #"<input name="t">"#,  // no value
        #"<p>name="t" value="no"</p>"#,  // text, not a tag
        #"<input name="t" value="unterminated"#,  // cut off: read to the end, no crash
        "<", "<input", "<input name", "<input name=", "", "<<<>>>=\"'",
    ])
    func findsNoTokenWhereThereIsNone(html: String) {
        let value = HTMLFormField.value(named: "t", in: Array(html.utf8))
        #expect(value == nil || value == "unterminated")
    }

    @Test func seesTheLoginFormsPasswordField() {
        let form = #"<form><input name="username"><input type="password" name="password" required id="id_password"></form>"#
        #expect(HTMLFormField.hasInput(named: "password", in: Array(form.utf8)))
        #expect(!HTMLFormField.hasInput(named: "password", in: Array("<p>Welcome, alice. Your password was changed.</p>".utf8)))
    }
}
