import Foundation

/// The JSON of the files notifytop writes for people to read and diff (a Ctrl-S table, a leak
/// baseline): indented, keys sorted, slashes as typed, ending with a newline.
enum PrettyJSON {
    static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}
