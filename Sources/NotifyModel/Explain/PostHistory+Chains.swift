/// Walks of the history's chains: a post's links and children, a name's posts, and scans by
/// sequence number or registration.
extension PostHistory {
    /// A post's kept links (deliveries and enqueues), oldest first, and whether every one folded
    /// is among them.
    func links(of post: Post) -> (links: [Link], complete: Bool) {
        var found: [Link] = []
        var ordinal = post.newestLink
        while let link = link(at: ordinal), link.postID == post.postID {
            found.append(link)
            ordinal = link.previous
        }
        return (found.reversed(), found.count == post.links)
    }

    /// A post's kept deliveries, oldest first, and whether every one folded is among them.
    func deliveries(of post: Post) -> (deliveries: [Link], complete: Bool) {
        var found: [Link] = []
        var ordinal = post.newestLink
        while let link = link(at: ordinal), link.postID == post.postID {
            if link.kind == .delivered { found.append(link) }
            ordinal = link.previous
        }
        return (found.reversed(), found.count == post.deliveries)
    }

    /// The kept posts made with `post` as their parent, oldest first, with their ordinals, and
    /// whether every one folded is among them.
    func children(of post: Post) -> (children: [(ordinal: Int, post: Post)], complete: Bool) {
        var found: [(ordinal: Int, post: Post)] = []
        var ordinal = post.newestChild
        while let child = self.post(at: ordinal), child.parentPostID == post.postID {
            found.append((ordinal, child))
            ordinal = child.previousSibling
        }
        return (found.reversed(), found.count == post.children)
    }

    /// The kept posts of a name, oldest first: at most `limit`, walking back from its newest
    /// post's `ordinal`.
    func posts(ofNameFrom ordinal: Int, limit: Int) -> [Post] {
        var found: [Post] = []
        var ordinal = ordinal
        while found.count < limit, let post = post(at: ordinal) {
            found.append(post)
            ordinal = post.previousOfName
        }
        return found.reversed()
    }

    /// How many of a name's posts, walking back from its newest post's `ordinal`, are kept, up to
    /// `limit`.
    func keptCount(ofNameFrom ordinal: Int, limit: Int) -> Int {
        var count = 0
        var ordinal = ordinal
        while count < limit, keeps(post: ordinal) {
            count += 1
            ordinal = self[kept: ordinal].previousOfName
        }
        return count
    }

    /// The newest kept post whose line had sequence number `seq`. O(kept posts).
    func postOrdinal(seq: UInt64) -> Int? {
        var ordinal = postsAppended - 1
        while ordinal >= postsAppended - posts.count, ordinal >= 0 {
            if posts[ordinal & (capacity - 1)].seq == seq { return ordinal }
            ordinal -= 1
        }
        return nil
    }

    /// The newest kept delivery whose line had sequence number `seq`. O(kept links).
    func delivery(seq: UInt64) -> Link? {
        var ordinal = linksAppended - 1
        while ordinal >= linksAppended - links.count, ordinal >= 0 {
            let link = links[ordinal & (capacity - 1)]
            if link.seq == seq, link.kind == .delivered { return link }
            ordinal -= 1
        }
        return nil
    }

    /// Kept deliveries to any of `registrations`, oldest first. O(kept links).
    func deliveries(to registrations: Set<UInt64>) -> [Link] {
        guard !registrations.isEmpty else { return [] }
        var found: [Link] = []
        var ordinal = max(0, linksAppended - links.count)
        while ordinal < linksAppended {
            let link = links[ordinal & (capacity - 1)]
            if link.kind == .delivered, registrations.contains(link.registration) { found.append(link) }
            ordinal += 1
        }
        return found
    }
}
