/// One post as every answer shows it: an explanation, a cascade, a "posted by" chain, a
/// finding's effects.
public struct PostInfo: Sendable, Hashable {
    /// The post line's sequence number.
    public let seq: UInt64
    /// The post id.
    public let postID: UInt64
    /// The name posted.
    public let name: String
    /// The label of the center posted to when the stream carries several (a nested post may go
    /// to another center than its parent); nil for one.
    public let center: String?
    /// The object posted; nil for none.
    public let object: ObjectInfo?
    /// The posting thread's id.
    public let thread: UInt64
    /// The posting thread's name, with its id.
    public let threadName: String
    /// The `post` call.
    public let site: CallsiteInfo
    /// Stream time of the post.
    public let time: UInt64
    /// 1 outside any handler, 2 inside one, and so on.
    public let depth: Int
    /// The post whose handler made this one; 0 for none.
    public let parentPostID: UInt64
    /// Registrations that matched when the post took its snapshot.
    public let matched: Int
}
