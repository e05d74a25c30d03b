import ArgumentParser
package import NotifyTUI

/// `--view names,threads,leaks`: views in the order given, each once. The dashboard shows the
/// first; batch mode prints them all in each frame.
package struct ViewList: Sendable, Hashable, ExpressibleByArgument {
    /// At least one view, none repeated.
    package let views: [ViewID]

    /// The view shown first.
    package var first: ViewID { views[0] }

    /// The views after ``first``.
    package var rest: [ViewID] { Array(views.dropFirst()) }

    /// Views by title or number (`names`, `3`), any case, comma-separated; nil when any part is
    /// not a view or none is given.
    package init?(argument: String) {
        var views: [ViewID] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let view = ViewID(argument: part.filter { !$0.isWhitespace }) else { return nil }
            if !views.contains(view) { views.append(view) }
        }
        guard !views.isEmpty else { return nil }
        self.views = views
    }

    /// The given views, in order.
    package init(_ views: ViewID...) {
        precondition(!views.isEmpty, "a view list needs a view")
        self.views = views
    }

    package var defaultValueDescription: String {
        views.map { $0.title.lowercased() }.joined(separator: ",")
    }
}
