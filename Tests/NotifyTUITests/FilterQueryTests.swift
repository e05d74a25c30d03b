import NotifyTUI
import Testing

private let fields = ["NAME", "OBS", "POSTS", "DUR", "POSTED ON"]

/// Matches one row given as cell texts and numeric values.
private func row(_ query: FilterQuery, _ cells: [String], _ values: [Double?]) -> Bool {
    query.matches(columns: cells.count, text: { cells[$0] }, value: { values[$0].map(SortKey.number) })
}

private let cart = ["cartDidChange", "3", "120", "6ms", "main"]
private let cartValues: [Double?] = [nil, 3, 120, 6_000_000, nil]
private let login = ["userDidLogin", "1", "7", "80µs", "worker-1"]
private let loginValues: [Double?] = [nil, 1, 7, 80_000, nil]

struct FilterQueryTests {
    @Test("a plain word is a case-insensitive substring of any column; several words must all match")
    func substring() throws {
        let query = try FilterQuery("CART main", fields: fields)
        #expect(row(query, cart, cartValues))
        #expect(!row(query, login, loginValues))
    }

    @Test("~ is a regular expression and a leading ! inverts a term")
    func regexAndInversion() throws {
        #expect(row(try FilterQuery("~^user.*in$", fields: fields), login, loginValues))
        #expect(!row(try FilterQuery("~^user.*in$", fields: fields), cart, cartValues))
        #expect(!row(try FilterQuery("!cart", fields: fields), cart, cartValues))
        #expect(row(try FilterQuery("!~^cart", fields: fields), login, loginValues))
    }

    @Test(
        "field queries compare numbers with units and text by equality",
        arguments: [
            ("posts>100", true, false), ("obs>=3", true, false), ("dur>5ms", true, false), ("dur<100us", false, true),
            ("postedon!=main", false, true), ("posted=main", true, false), ("name~login$", false, true),
            ("thread!=main", nil, nil), ("posts>100 obs>=3", true, false), ("p=7", nil, nil), ("posts=7", false, true),
            ("posts>0.1k", true, false),
        ] as [(String, Bool?, Bool?)])
    func fieldQueries(text: String, matchesCart: Bool?, matchesLogin: Bool?) {
        guard let query = try? FilterQuery(text, fields: fields) else {
            #expect(matchesCart == nil, "\(text) should parse")
            return
        }
        #expect(matchesCart != nil, "\(text) should not parse")
        #expect(row(query, cart, cartValues) == matchesCart)
        #expect(row(query, login, loginValues) == matchesLogin)
    }

    @Test(
        "malformed queries explain themselves in one line",
        arguments: [
            ("thread!=main", "unknown field thread"), ("dur>fast", "not a number"), ("~(", "bad regular expression"),
            ("\"open", "unterminated quote"), ("posts>", "needs a value"), ("!", "needs something"),
            ("p>1", "ambiguous"),
        ])
    func errors(text: String, message: String) {
        #expect(throws: FilterQuery.ParseError.self) { try FilterQuery(text, fields: fields) }
        do {
            _ = try FilterQuery(text, fields: fields)
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("quotes keep spaces and operators literal")
    func quotes() throws {
        let query = try FilterQuery("\"did change\"", fields: fields)
        #expect(!row(query, cart, cartValues))
        #expect(row(try FilterQuery("\"posts>1\"", fields: fields), ["posts>1"], [nil]))
    }
}
