public import Foundation
public import NotifyModel

/// The leak findings already known, by signature: what `notifytop baseline REC` writes and
/// `--baseline FILE` reads, so `--fail-on` fails only on what is new; a leak check's
/// `report.newFindings(against:)` reads the same file.
///
/// The file is JSON, one signature per element, sorted, so a reviewer reads its diff:
/// `{"notifytopBaseline": 1, "signatures": [{"rule": "R1", "name": "cartDidChange",
/// "site": "Shop/Cart.swift:42", "owner": "Shop.CartScreen"}]}`.
public struct LeakBaseline: Sendable, Equatable {
    /// Why a baseline file could not be read: one line naming the file.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The version this notifytop writes and reads.
    public static let version = 1

    /// The known signatures.
    public var signatures: Set<LeakSignature>

    /// A baseline of `signatures`.
    public init(signatures: some Sequence<LeakSignature>) {
        self.signatures = Set(signatures)
    }

    /// The signatures of every finding of `model`, open or resolved: a finding that came and went
    /// in the recorded run is known too.
    public init(model: InspectorState) {
        self.init(signatures: model.findings.map(\.signature))
    }

    /// Reads the baseline file at `path`.
    public init(contentsOf path: String) throws(Failure) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(path): cannot read the baseline file")
        }
        try self.init(json: data, source: path)
    }

    /// Reads a baseline from JSON; `source` names it in the error.
    public init(json data: Data, source: String) throws(Failure) {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch let error as DecodingError {
            throw Failure(description: "\(source): not a notifytop baseline: \(Self.reason(error))")
        } catch {
            throw Failure(description: "\(source): not a notifytop baseline: \(error)")
        }
        guard file.notifytopBaseline == Self.version else {
            throw Failure(
                description:
                    "\(source): baseline version \(file.notifytopBaseline), this notifytop reads version \(Self.version)"
            )
        }
        self.init(signatures: file.signatures)
    }

    /// The file's text, signatures sorted, ending with a newline.
    public var json: String {
        let file = File(notifytopBaseline: Self.version, signatures: signatures.sorted())
        // Indented, keys sorted, slashes as typed, as notifytop's other files for people; encoding
        // strings and integers cannot fail.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(file)).map { String(decoding: $0, as: UTF8.self) } ?? "") + "\n"
    }

    /// Whether `finding`'s signature is known.
    public func contains(_ finding: LeakFinding) -> Bool {
        signatures.contains(finding.signature)
    }

    private struct File: Codable {
        var notifytopBaseline: Int
        var signatures: [LeakSignature]
    }

    /// One line for a decoding error: what was wrong, and where.
    private static func reason(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys)"
        }
        let text: String
        switch error {
        case .keyNotFound(let key, let context): text = "missing \"\(key.stringValue)\"" + path(context)
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            text = String(context.debugDescription.trimmingSuffix(".")) + path(context)
        case .dataCorrupted(let context):
            let underlying = context.codingPath.isEmpty ? "not JSON" : context.debugDescription
            text = underlying + path(context)
        @unknown default: text = "\(error)"
        }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self[...]
    }
}
