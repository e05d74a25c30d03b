/// A parsed `/` filter (or F3 search): whitespace-separated terms that must all match a row.
///
/// The language is the one k9s, btop and bottom users already know, kept small:
/// - `cart` keeps rows where some column contains "cart" (any case); `"a b"` quotes spaces;
/// - `~^user` keeps rows where some column matches a regular expression (any case);
/// - a leading `!` inverts a term: `!block`, `!~^ns`;
/// - `field OP value` compares one column: `thread!=main dur>5ms posts>100 obs>=3 name~^cart`.
///   Fields are the column titles of the table shown (any case, spaces dropped, a unique prefix
///   is enough). `=`/`!=` compare numbers when both sides are numbers and text otherwise;
///   `>` `>=` `<` `<=` need a number, which may carry a unit: `ns` `us` `µs` `ms` `s` `m` `h`
///   for durations and ages, `k` `M` `G` for counts. `~`/`!~` match a regular expression.
///
/// Parsing happens when the filter is typed, so a malformed query is reported there (one line)
/// and never reaches a frame.
package struct FilterQuery: Sendable {
    /// Why a query cannot be used, in one line.
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The message shown in the filter line.
        package var description: String
    }

    enum Operator: String, Sendable, CaseIterable {
        // Two-character operators first, so `>=` is not read as `>`.
        case notEqual = "!=", greaterOrEqual = ">=", lessOrEqual = "<=", notMatching = "!~"
        case equal = "=", greater = ">", less = "<", matching = "~"
    }

    enum Matcher: @unchecked Sendable {
        // `Regex` is immutable once built; it is only read while matching.
        case substring(String)
        case regex(Regex<AnyRegexOutput>)
        case compare(column: Int, Operator, text: String, number: Double?, regex: Regex<AnyRegexOutput>?)
    }

    struct Term: Sendable {
        var matcher: Matcher
        var inverted: Bool
    }

    let terms: [Term]

    /// Whether the query keeps every row.
    package var isEmpty: Bool { terms.isEmpty }

    /// Parses `text` for a table whose columns are titled `fields`.
    package init(_ text: String, fields: [String]) throws(ParseError) {
        var terms: [Term] = []
        for token in try Self.tokens(text) {
            terms.append(try Self.term(token, fields: fields))
        }
        self.terms = terms
    }

    /// A query matching `text` as one plain substring: the fallback for a filter that no longer
    /// parses (its table lost the column it named).
    package init(substring text: String) {
        terms = text.isEmpty ? [] : [Term(matcher: .substring(text.lowercased()), inverted: false)]
    }

    /// Whether a row matches every term.
    ///
    /// - Parameters:
    ///   - columns: How many columns the row has.
    ///   - text: A column's cell text.
    ///   - value: A column's comparable value (numbers for counts and durations), if any.
    package func matches(columns: Int, text: (Int) -> String, value: (Int) -> SortKey?) -> Bool {
        for term in terms where evaluate(term.matcher, columns: columns, text: text, value: value) == term.inverted {
            return false
        }
        return true
    }

    private func evaluate(_ matcher: Matcher, columns: Int, text: (Int) -> String, value: (Int) -> SortKey?) -> Bool {
        switch matcher {
        case .substring(let needle):
            return (0..<columns).contains { text($0).lowercased().contains(needle) }
        case .regex(let regex):
            return (0..<columns).contains { text($0).contains(regex) }
        case .compare(let column, let op, let wanted, let number, let regex):
            guard column < columns else { return false }
            let cell = text(column)
            switch op {
            case .matching: return regex.map { cell.contains($0) } ?? false
            case .notMatching: return !(regex.map { cell.contains($0) } ?? false)
            case .equal, .notEqual:
                let equal: Bool
                if let number, case .number(let actual)? = value(column) {
                    equal = actual == number
                } else {
                    equal = cell.lowercased() == wanted.lowercased()
                }
                return equal == (op == .equal)
            case .greater, .greaterOrEqual, .less, .lessOrEqual:
                guard let number, case .number(let actual)? = value(column) else { return false }
                switch op {
                case .greater: return actual > number
                case .greaterOrEqual: return actual >= number
                case .less: return actual < number
                default: return actual <= number
                }
            }
        }
    }

    // MARK: Parsing

    /// Splits on whitespace outside double quotes; quotes stay in the token.
    static func tokens(_ text: String) throws(ParseError) -> [String] {
        var tokens: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if character.isWhitespace && !quoted {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if quoted { throw ParseError(description: "unterminated quote in \(current)") }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    static func unquote(_ text: Substring) -> String {
        String(text.filter { $0 != "\"" })
    }

    static func term(_ token: String, fields: [String]) throws(ParseError) -> Term {
        var rest = Substring(token)
        var inverted = false
        if rest.first == "!" {
            inverted = true
            rest = rest.dropFirst()
            if rest.isEmpty { throw ParseError(description: "! needs something to invert") }
        }
        if rest.first == "~" {
            return Term(matcher: .regex(try regex(unquote(rest.dropFirst()))), inverted: inverted)
        }
        if rest.first != "\"", let (field, op, value) = comparison(rest) {
            let column = try column(named: field, in: fields)
            let text = unquote(value)
            if text.isEmpty { throw ParseError(description: "\(field)\(op.rawValue) needs a value") }
            let number = Self.number(text)
            var pattern: Regex<AnyRegexOutput>?
            switch op {
            case .matching, .notMatching: pattern = try regex(text)
            case .greater, .greaterOrEqual, .less, .lessOrEqual:
                if number == nil {
                    throw ParseError(
                        description:
                            "\(field)\(op.rawValue)\(text): \(text) is not a number (units: ns us ms s m h, k M G)")
                }
            case .equal, .notEqual: break
            }
            return Term(
                matcher: .compare(column: column, op, text: text, number: number, regex: pattern),
                inverted: inverted)
        }
        let needle = unquote(rest)
        if needle.isEmpty { throw ParseError(description: "empty quotes") }
        return Term(matcher: .substring(needle.lowercased()), inverted: inverted)
    }

    /// `posts>=3` → ("posts", >=, "3"); nil when the token is not shaped like a field query.
    static func comparison(_ token: Substring) -> (String, Operator, Substring)? {
        guard let first = token.first, first.isLetter else { return nil }
        var index = token.startIndex
        while index < token.endIndex, token[index].isLetter || token[index].isNumber || token[index] == "_" {
            index = token.index(after: index)
        }
        let field = String(token[..<index])
        let rest = token[index...]
        for op in Operator.allCases where rest.hasPrefix(op.rawValue) {
            return (field, op, rest.dropFirst(op.rawValue.count))
        }
        return nil
    }

    /// The column a field names: exact title first (spaces dropped, any case), then a unique prefix.
    static func column(named field: String, in fields: [String]) throws(ParseError) -> Int {
        let wanted = field.lowercased()
        let names = fields.map(normalizedField)
        if let exact = names.firstIndex(of: wanted) { return exact }
        let prefixed = names.indices.filter { names[$0].hasPrefix(wanted) }
        if prefixed.count == 1 { return prefixed[0] }
        let list = names.filter { !$0.isEmpty }.joined(separator: " ")
        if prefixed.count > 1 {
            throw ParseError(
                description: "field \(field) is ambiguous: \(prefixed.map { names[$0] }.joined(separator: " "))")
        }
        throw ParseError(description: "unknown field \(field) (fields here: \(list))")
    }

    /// How a column title is typed as a field: `POSTED ON` → `postedon`.
    package static func normalizedField(_ title: String) -> String {
        String(title.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    static func regex(_ pattern: String) throws(ParseError) -> Regex<AnyRegexOutput> {
        guard !pattern.isEmpty else { throw ParseError(description: "~ needs a regular expression") }
        do {
            return try Regex(pattern).ignoresCase()
        } catch {
            throw ParseError(description: "bad regular expression \(pattern)")
        }
    }

    /// `5ms` → 5_000_000 (durations are nanoseconds), `1.5k` → 1500, `42` → 42; nil otherwise.
    static func number(_ text: String) -> Double? {
        let units: [(String, Double)] = [
            ("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3_600e9),
            ("k", 1e3), ("K", 1e3), ("M", 1e6), ("G", 1e9),
        ]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let value = Double(text.dropLast(suffix.count)), value.isFinite else { return nil }
            return value * scale
        }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}

extension TableSpec {
    /// The names field queries use: the column titles.
    var fields: [String] { columns.map(\.title) }

    /// The table's filter as a query; a filter that no longer parses (its column went away with a
    /// regrouping) falls back to a plain substring instead of hiding every row.
    func query(_ text: String) -> FilterQuery {
        (try? FilterQuery(text, fields: fields)) ?? FilterQuery(substring: text)
    }

    /// Whether `item` passes `query`.
    func matches(_ query: FilterQuery, _ item: Item) -> Bool {
        query.matches(columns: columns.count, text: { columns[$0].text(item) }, value: { columns[$0].value?(item) })
    }
}
