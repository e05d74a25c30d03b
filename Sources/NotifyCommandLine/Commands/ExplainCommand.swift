package import ArgumentParser
import NotifyModel
import NotifySession

/// `notifytop explain FILE --name NAME` (or `--pid P`): why each observer did or did not run for a
/// name's posts; `--post SEQ --cascade` what a post set off.
/// Parsing only; the explanation is NotifyModel's, the report `ExplanationReport`.
package struct ExplainCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain why each observer did or did not run for a name's posts, in a recording or a live process.",
        discussion: """
            The file is folded through the same model as --replay; with --pid (or --socket, --foundation --pid \
            or --ssh HOST --pid) notifytop attaches as the dashboard does, folds the stream for --for (default 2s) or until \
            it ends, detaches and answers the same way. For each kept post of NAME (the last 32), \
            every registration that could have received it is listed: NAME's own, every-name ones, and those \
            of near names (a typo or a difference in case), live or ended within the model's retirement window \
            (60 s), each with a reason: delivered, other-center (a stream of several centers), object-differs, \
            name-differs, registered-after, removed-before, owner-dead, object-dead, token-dropped, still-queued, \
            buffer-dropped or unknown. \
            A name nobody posted explains its near names' posts.

            Only a name's last 32 posts among the last 65,536 posts of all names are explained, and the \
            report says when older ones are not; with a recording, --all keeps up to \(Self.allLinks) posts \
            (and as many deliveries) and explains up to \(Self.allPostsPerName) posts of each name, enough \
            for every post of most recordings.

            --post SEQ --cascade prints what that post set off: its deliveries and the posts their handlers \
            made, as a tree; --post SEQ --posted-by climbs from it to the post made outside any handler.

            Exit status: 0 explained, 1 the process cannot be attached, 2 the file cannot be read or is not \
            a trace, or the registration or post is not kept, 64 a usage error.
            """)

    @Argument(help: ArgumentHelp("The recording (or give --pid).", valueName: "recording"))
    package var file: String?

    @OptionGroup(title: "Target")
    package var target: TargetOptions

    @Option(
        name: .customLong("for"),
        help: ArgumentHelp(
            "With --pid: how long to fold the stream (2 or 2s, 500ms, 1m; default 2s).", valueName: "seconds"))
    package var duration: CommandDuration?

    @Option(help: ArgumentHelp("The notification name to explain.", valueName: "name"))
    package var name: String?

    @Option(help: ArgumentHelp("Only posts of this object id (the trace's obj id).", valueName: "id"))
    package var object: UInt64?

    @Option(
        help: ArgumentHelp(
            "Only this registration's verdicts; without --name, every kept post of its name.", valueName: "id"))
    package var registration: UInt64?

    @Option(
        help: ArgumentHelp(
            "Only the post with this sequence number (alone: that post, or a delivery's post).", valueName: "seq"))
    package var post: UInt64?

    @Flag(help: "With --post: the post's cascade, its deliveries and the posts they made, as a tree.")
    package var cascade = false

    @Flag(help: "With --post: who posted it, up through the handler runs to the first post.")
    package var postedBy = false

    @Flag(help: "Print one JSON object instead of text.")
    package var json = false

    @Flag(help: "With a recording: explain every post of the name, not only the last 32.")
    package var all = false

    /// What `--all` keeps: posts of each name, and deliveries and enqueues of all posts.
    static let allPostsPerName = 1 << 20
    static let allLinks = 1 << 22

    package init() {}

    package func validate() throws {
        if (file == nil) == !target.namesProcess {
            throw ValidationError("give a recording FILE, or --pid P (or --socket PATH) for a live process")
        }
        if target.foundation && target.pid == nil { throw ValidationError("--foundation needs --pid") }
        if file != nil && target.ssh != nil {
            throw ValidationError("--ssh attaches to a process on another host; a recording FILE is read here")
        }
        if all && file == nil { throw ValidationError("--all applies to a recording FILE") }
        if duration != nil && file != nil { throw ValidationError("--for applies to --pid: a file is read to its end") }
        if let duration, duration.nanoseconds == 0 {
            throw ValidationError("--for takes a time above zero, such as 2s")
        }
        if cascade || postedBy {
            if post == nil { throw ValidationError("--cascade and --posted-by need --post SEQ") }
            if cascade && postedBy { throw ValidationError("give --cascade or --posted-by, not both") }
        } else if name == nil && registration == nil && post == nil {
            throw ValidationError("give --name NAME, --registration ID or --post SEQ")
        }
    }

    package func run() throws {
        let model: InspectorState
        if let file {
            let fold: RecordingFold
            var configuration = InspectorConfiguration()
            if all {
                configuration.explainPostsPerName = Self.allPostsPerName
                configuration.explainLinkCapacity = Self.allLinks
            }
            do { fold = try RecordingFold(path: file, configuration: configuration) } catch {
                NotifyTopRunner.printError("notifytop explain: \(error)")
                throw ExitCode(NotifyTopRunner.unreadableInput)
            }
            if let skipped = fold.skippedLines { NotifyTopRunner.printError("notifytop explain: \(file): \(skipped)") }
            model = fold.model
        } else {
            model = try foldLive()
        }
        if cascade || postedBy, let post {
            try printCascade(model, post: post)
            return
        }
        var report: ExplanationReport
        if let name {
            report = ExplanationReport(
                model.explain(name: name, object: object, registration: registration, post: post))
        } else if let registration, let explanation = model.explain(registration: registration) {
            report = ExplanationReport(explanation)
        } else if registration == nil, let post, let kept = model.cascadeEvent(seq: post),
            let posted = model.cascadePost(id: kept.postID)
        {
            report = ExplanationReport(model.explain(name: posted.name, post: posted.seq))
        } else if registration == nil, let post {
            NotifyTopRunner.printError("notifytop explain: no post or delivery with seq \(post) is kept")
            throw ExitCode(NotifyTopRunner.unreadableInput)
        } else {
            NotifyTopRunner.printError("notifytop explain: registration \(registration ?? 0) is not tracked")
            throw ExitCode(NotifyTopRunner.unreadableInput)
        }
        report.keep(object: object, post: name == nil && registration == nil ? nil : post)
        if report.leftOlderPosts && !all {
            report.note(
                file != nil
                    ? "--all explains up to \(Self.allPostsPerName) posts of each name"
                    : "older posts of a live process are not kept: record it and explain the recording with --all")
        }
        print(json ? report.json : report.text)
    }

    /// `--pid`: attach as the dashboard does, fold for `--for`, detach.
    private func foldLive() throws -> InspectorState {
        // The dashboard's defaults, with this target.
        var options = try NotifyTopOptions.parse([])
        options.target = target
        // Explaining needs every post and delivery.
        if target.foundation {
            guard target.probes != .counting else {
                NotifyTopRunner.printError("notifytop explain: explaining needs every event: give --probes events")
                throw ExitCode(1)
            }
            options.target.probes = .events
        }
        do {
            let fold = try LiveFold(options, for: duration?.nanoseconds ?? LiveFold.defaultDuration)
            if let ended = fold.ended {
                NotifyTopRunner.printError("notifytop explain: the stream ended (\(ended)) after \(fold.events) events")
            }
            return fold.model
        } catch {
            NotifyTopRunner.printError("notifytop explain: \(error)")
            throw ExitCode(1)
        }
    }

    private func printCascade(_ model: InspectorState, post seq: UInt64) throws {
        guard let event = model.cascadeEvent(seq: seq) else {
            NotifyTopRunner.printError("notifytop explain: no post or delivery with seq \(seq) is kept")
            throw ExitCode(NotifyTopRunner.unreadableInput)
        }
        let report: CascadeReport
        if cascade, let tree = model.cascade(post: event.postID) {
            report = CascadeReport(tree)
        } else if postedBy,
            let chain = event.registration == nil
                ? model.postedBy(post: event.postID) : model.postedBy(deliverySeq: seq)
        {
            report = CascadeReport(chain)
        } else {
            NotifyTopRunner.printError("notifytop explain: post \(event.postID) is no longer kept")
            throw ExitCode(NotifyTopRunner.unreadableInput)
        }
        print(json ? report.json : report.text)
    }
}
