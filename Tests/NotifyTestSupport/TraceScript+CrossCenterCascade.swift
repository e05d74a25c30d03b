extension TraceScript {
    /// A stream of two centers, "default" and "sync", in which the handler of a `cartDidChange`
    /// post on "default" (registration 1) posts `syncNeeded` to "sync" (registration 2, site 102),
    /// which runs inside it. Returns the script and the two posts' ids.
    package static func crossCenterCascade() -> (script: TraceScript, parent: UInt64, child: UInt64) {
        var script = TraceScript(centers: ["default", "sync"])
        script.register(1, "cartDidChange", center: 0)
        script.register(2, "syncNeeded", site: 102, center: 1)
        let start = script.time
        let parent = script.post("cartDidChange", matched: 1, center: 0)
        script.advance(100)
        let child = script.post("syncNeeded", matched: 1, depth: 2, parent: parent, center: 1)
        script.deliver(child, to: 2, name: "syncNeeded", duration: 100, depth: 2)
        script.deliver(parent, to: 1, name: "cartDidChange", duration: 1_000, startedAt: start + 10)
        return (script, parent, child)
    }
}
