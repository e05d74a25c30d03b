import NotifyModel

/// One post in a report: the wire shape of a model `PostInfo`, shared by explain's report and
/// the cascade's.
///
/// Explain's report has always said `"object": null` for a post with no object and never
/// `matched`; the cascade's leaves `object` out and says `matched`. Each keeps its shape: the
/// explanation adds its null and leaves `matched` nil.
struct ReportedPost: Sendable, Encodable {
    var seq: UInt64
    var postID: UInt64
    var name: String
    /// The label of the center posted to; absent when the stream carries one center.
    var center: String?
    var object: ReportedObject?
    var thread: UInt64
    var threadName: String
    var site: String
    var timeNs: UInt64
    var depth: Int
    var parentPostID: UInt64
    var matched: Int?

    init(_ post: PostInfo, matched: Bool) {
        seq = post.seq
        postID = post.postID
        name = post.name
        center = post.center
        object = post.object.map(ReportedObject.init)
        thread = post.thread
        threadName = post.threadName
        site = post.site.description
        timeNs = post.time
        depth = post.depth
        parentPostID = post.parentPostID
        self.matched = matched ? post.matched : nil
    }
}
