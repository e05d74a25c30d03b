import Foundation
import NotifyKit

/// An open file; `DocumentDidSave` is posted with it as the object.
final class Document: @unchecked Sendable {  // main lane only
    let path: String
    private(set) var edits = 0

    init(path: String) {
        self.path = path
    }

    func edit() { edits += 1 }
}

/// A text editor: owner-bound observers of its own document's saves (filtered on the document)
/// and of the keyboard, all in one bag that ``close()`` cancels. *Revert* closes the document and
/// reopens the file as a new `Document` object.
final class DocumentEditor: ModalScreen, @unchecked Sendable {  // main lane only
    let title = "Editor"
    private let context: DemoContext
    private let monitor: AutosaveMonitor
    private let bag = TokenBag()
    private let documentBag = TokenBag()
    private(set) var document: Document
    private(set) var saves = 0

    init(context: DemoContext, monitor: AutosaveMonitor, path: String) {
        self.context = context
        self.monitor = monitor
        document = Document(path: path)
        let mainOnly = context.uiRunsOnMainThread
        for name in [DemoName.keyboardWillShow, .keyboardWillHide] {
            context.registered(name)
            bag.add(
                context.center.observe(name.name, owner: self, mainThreadOnly: mainOnly) { [context] _, _ in
                    context.received(name)
                })
        }
        watch(document)
    }

    /// Types a few characters: the keyboard shows and hides.
    func type() {
        context.post(.keyboardWillShow)
        document.edit()
        context.post(.keyboardWillHide)
    }

    /// Saves the document; live, the search indexer hears of it through the async ``DocumentSaved``.
    func save() {
        context.post(.documentDidSave, object: document)
        guard context.typedMessages else { return }
        context.post(
            DocumentSaved(path: document.path, edits: document.edits), .documentSaved, subject: document,
            observers: 1)
    }

    /// Throws away the edits: closes the document and reopens the file, then saves the fresh copy.
    func revert() {
        let path = document.path
        stopWatching(reverting: true)
        // Nothing else allocates between here and the reopen: the new `Document` usually lands at
        // the old one's address, the identity reuse a dead object filter must not match.
        document = Document(path: path)
        watch(document)
        save()
    }

    func close() {
        bag.cancelAll()
        stopWatching(reverting: false)
    }

    private func watch(_ document: Document) {
        context.registered(.documentDidSave)
        documentBag.add(
            context.center.observe(
                DemoName.documentDidSave.name, object: document, owner: self, mainThreadOnly: context.uiRunsOnMainThread
            ) { [context] editor, _ in
                context.received(.documentDidSave)
                editor.saves += 1
            })
        monitor.watch(document)
    }

    private func stopWatching(reverting: Bool) {
        documentBag.cancelAll()
        monitor.documentWillClose(document, reverting: reverting)
    }
}

/// Autosaves open documents: one block registration per document, filtered on it. Clean, the
/// watch ends when the document closes. With `dead-sender` a revert forgets to end it, so the
/// registration outlives its filter object; the center purges it (object-deallocated) at the
/// next save from an object at the same address (R3, dead sender).
final class AutosaveMonitor: @unchecked Sendable {  // main lane only
    private let context: DemoContext
    private var watches: [(document: ObjectIdentifier, token: NotifyToken)] = []
    /// Tokens of watches the bug forgot; kept, so their release is not also a dropped token.
    private var forgotten: [NotifyToken] = []

    init(context: DemoContext) {
        self.context = context
    }

    func watch(_ document: Document) {
        context.registered(.documentDidSave)
        let token = context.center.addObserver(
            forName: DemoName.documentDidSave.name, object: document, deliverOn: .posting
        ) { [context] _ in
            context.received(.documentDidSave)
        }
        watches.append((ObjectIdentifier(document), token))
    }

    /// Ends the watch of `document`, which is still alive, so its identity is still its own.
    func documentWillClose(_ document: Document, reverting: Bool) {
        guard let index = watches.firstIndex(where: { $0.document == ObjectIdentifier(document) }) else { return }
        let watch = watches.remove(at: index)
        if reverting && context.has(.deadSender) {
            // The bug: the revert path skips `cancel()`; the token is parked instead.
            forgotten.append(watch.token)
            forgotten.removeAll { !$0.isActive }
            context.planted.plant(.deadSender)
        } else {
            watch.token.cancel()
        }
    }
}

/// The recent-documents menu: an owner-bound observer of every save, on the main thread.
final class RecentFiles: @unchecked Sendable {  // main lane only
    private let bag = TokenBag()
    private(set) var saves = 0

    init(context: DemoContext) {
        context.registered(.documentDidSave)
        bag.add(
            context.center.observe(
                DemoName.documentDidSave.name, owner: self, mainThreadOnly: context.uiRunsOnMainThread
            ) { [context] files, _ in
                context.received(.documentDidSave)
                files.saves += 1
            })
    }
}
