import Foundation
import NotifySystem

#if canImport(Glibc)
import Glibc
#endif

/// An OTLP/HTTP receiver on 127.0.0.1 for one test: answers every POST with an empty JSON
/// success and keeps each request's body. HTTP/1.1 with keep-alive and Content-Length bodies only,
/// which is what swift-otel's exporter sends; a request it cannot read closes the connection.
final class LoopbackOTLPReceiver: @unchecked Sendable {  // `lock` guards `bodies` and `paths`
    let port: UInt16
    private let listener: Int32
    private let lock = Lock()
    private var bodies: [Data] = []
    private var paths: [String] = []
    /// A request head or body larger than this is refused.
    private static let maxRequestBytes = 16 << 20

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "otlp-receiver"
        thread.start()
    }

    /// Stops accepting; connections already open end when the exporter closes them.
    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    var endpoint: String { "http://127.0.0.1:\(port)/v1/traces" }

    var receivedBodies: [Data] { lock.withLock { bodies } }
    var receivedPaths: [String] { lock.withLock { paths } }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffer = Data()
        while let (path, body) = nextRequest(connection, &buffer) {
            lock.withLock {
                paths.append(path)
                bodies.append(body)
            }
            let reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
            guard writeAll(connection, Array(reply.utf8)) else { return }
        }
    }

    /// The next request's path and body; nil when the connection ends or sends what this cannot read.
    private func nextRequest(_ connection: Int32, _ buffer: inout Data) -> (String, Data)? {
        let separator = Data("\r\n\r\n".utf8)
        var headEnd = buffer.range(of: separator)
        while headEnd == nil {
            guard buffer.count < Self.maxRequestBytes, read(connection, into: &buffer) else { return nil }
            headEnd = buffer.range(of: separator)
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        guard let requestLine = lines.first?.split(separator: " "), requestLine.count == 3,
            requestLine[0] == "POST"
        else { return nil }
        var contentLength = 0
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { continue }
            guard let length = Int(parts[1].trimmingCharacters(in: .whitespaces)), length >= 0,
                length <= Self.maxRequestBytes
            else { return nil }
            contentLength = length
        }
        let bodyStart = headEnd.upperBound
        while buffer.distance(from: bodyStart, to: buffer.endIndex) < contentLength {
            guard read(connection, into: &buffer) else { return nil }
        }
        let bodyEnd = buffer.index(bodyStart, offsetBy: contentLength)
        let body = Data(buffer[bodyStart..<bodyEnd])
        buffer = Data(buffer[bodyEnd...])
        return (String(requestLine[1]), body)
    }

    private func read(_ connection: Int32, into buffer: inout Data) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = Glibc.read(connection, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    private func writeAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

/// A span as an OTLP/JSON export request carries it: ids as the exporter spelled them.
struct ExportedSpan {
    let name: String
    let traceID: String
    let spanID: String
    let parentSpanID: String?
    let attributes: [String: Any]

    /// The spans of every `ExportTraceServiceRequest` body (`resourceSpans[].scopeSpans[].spans[]`).
    static func all(in bodies: [Data]) -> [ExportedSpan] {
        var spans: [ExportedSpan] = []
        for body in bodies {
            guard let request = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { continue }
            for resource in request["resourceSpans"] as? [[String: Any]] ?? [] {
                for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                    for span in scope["spans"] as? [[String: Any]] ?? [] {
                        guard let name = span["name"] as? String, let traceID = span["traceId"] as? String,
                            let spanID = span["spanId"] as? String
                        else { continue }
                        let parent = (span["parentSpanId"] as? String).flatMap { $0.isEmpty ? nil : $0 }
                        var attributes: [String: Any] = [:]
                        for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                            guard let key = attribute["key"] as? String,
                                let value = attribute["value"] as? [String: Any]
                            else { continue }
                            attributes[key] = value.values.first
                        }
                        spans.append(
                            ExportedSpan(
                                name: name, traceID: traceID, spanID: spanID, parentSpanID: parent,
                                attributes: attributes))
                    }
                }
            }
        }
        return spans
    }
}
