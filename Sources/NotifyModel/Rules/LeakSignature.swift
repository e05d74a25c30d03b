/// What a finding is about, spelled so that it survives a rerun: rule, notification name,
/// registration site and owner type, never trace ids or addresses.
///
/// Why: two runs of the same program give the same findings different ids and objects different
/// addresses, so a baseline of known findings (``LeakSignature`` values written by
/// `notifytop baseline`) and a count of instances per root cause must key on what the code says.
/// A signature names only what the finding's key is about: a finding keyed by name (R9, R10, R6
/// budgets, R8 mixed threads) has no site or owner type, whose latest values change from run to run.
public struct LeakSignature: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The rule.
    public var rule: LeakRule
    /// The notification name (`"*"` for wildcard registrations), when the finding names one.
    public var name: String?
    /// The registering (or, for post-side rules, posting) call as `#fileID:line`.
    public var site: String?
    /// The dynamic type of the observer (of the object filter, for a dead sender).
    public var ownerType: String?
    /// The center's label when the stream carries several centers, so that two centers' findings
    /// stay apart; nil with one center (a baseline written before centers reads the same).
    public var center: String?

    /// Creates a signature.
    public init(rule: LeakRule, name: String?, site: String?, ownerType: String?, center: String? = nil) {
        self.rule = rule
        self.name = name
        self.site = site
        self.ownerType = ownerType
        self.center = center
    }

    /// The signature of `finding`.
    public init(_ finding: LeakFinding) {
        let evidence = finding.evidence
        rule = finding.rule
        name = evidence.name
        center = finding.center
        switch finding.key.subject {
        case .name(let keyName):
            name = keyName
            site = nil
            ownerType = nil
        case .participant(_, let sender):
            site = evidence.callsite?.description
            ownerType = (sender ? evidence.objectFilter : evidence.observer)?.typeName
        case .callsite, .nameAtCallsite, .observer:
            site = evidence.callsite?.description
            ownerType = evidence.observer?.typeName
        }
    }

    /// `R5 "cartDidChange" Demo/Cart.swift:42 Demo.CartScreen`; absent parts are left out.
    public var description: String {
        var parts = [rule.code]
        if let name { parts.append("\"\(name)\"") }
        if let site { parts.append(site) }
        if let ownerType { parts.append(ownerType) }
        if let center { parts.append("on \(center)") }
        return parts.joined(separator: " ")
    }

    /// By rule number, then name, site and owner type (absent first).
    public static func < (lhs: LeakSignature, rhs: LeakSignature) -> Bool {
        if lhs.rule != rhs.rule { return lhs.rule < rhs.rule }
        return (lhs.name ?? "", lhs.site ?? "", lhs.ownerType ?? "", lhs.center ?? "")
            < (rhs.name ?? "", rhs.site ?? "", rhs.ownerType ?? "", rhs.center ?? "")
    }

    private enum CodingKeys: String, CodingKey {
        case rule, name, site, owner, center
    }

    /// Reads `{"rule":"R5","name":…,"site":…,"owner":…}`; an unknown rule is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let code = try container.decode(String.self, forKey: .rule)
        guard let rule = LeakRule(rawValue: code) else {
            throw DecodingError.dataCorruptedError(
                forKey: .rule, in: container, debugDescription: "unknown rule \"\(code)\" (R1 to R11)")
        }
        self.rule = rule
        name = try container.decodeIfPresent(String.self, forKey: .name)
        site = try container.decodeIfPresent(String.self, forKey: .site)
        ownerType = try container.decodeIfPresent(String.self, forKey: .owner)
        center = try container.decodeIfPresent(String.self, forKey: .center)
    }

    /// Writes the rule's code and the parts present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rule.code, forKey: .rule)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(site, forKey: .site)
        try container.encodeIfPresent(ownerType, forKey: .owner)
        try container.encodeIfPresent(center, forKey: .center)
    }
}

extension LeakFinding {
    /// What this finding is about, stable across runs; see ``LeakSignature``.
    public var signature: LeakSignature { LeakSignature(self) }
}
