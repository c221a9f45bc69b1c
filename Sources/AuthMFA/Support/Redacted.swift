/// Shared pieces of the redacted `description`s and mirrors of secret-holding values.
enum Redacted {
    /// What a redacted field shows.
    static let marker = "<redacted>"
}
