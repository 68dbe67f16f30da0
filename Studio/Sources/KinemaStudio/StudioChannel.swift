import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// HTTP/1.1 connections with bounds: one idle past `idleTimeout` is closed (an idle connection
/// is also one whose request head has not arrived, so a client that sends its headers a byte at a
/// time is closed too), and past `maximumConnections` open at once a new one is answered
/// `503 Service Unavailable` with a JSON error and closed at once, so the server keeps its
/// descriptors and stays responsive however many clients hold connections open.
struct StudioChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    /// How many connections are open, shared by every connection of one server.
    final class Count: @unchecked Sendable {
        private let lock = NSLock()
        private var open = 0

        /// Counts one more connection, unless `maximum` are open; returns whether it did.
        func enter(below maximum: Int) -> Bool {
            lock.withLock {
                guard open < maximum else { return false }
                open += 1
                return true
            }
        }

        func leave() { lock.withLock { open -= 1 } }
    }

    let http: HTTP1Channel
    let maximumConnections: Int
    let count = Count()

    init(responder: @escaping HTTPChannelHandler.Responder, limits: Studio.ConnectionLimits) {
        http = HTTP1Channel(
            responder: responder, configuration: .init(idleTimeout: .nanoseconds(Int64(limits.idleTimeout * 1e9))))
        maximumConnections = limits.maximumConnections
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        guard count.enter(below: maximumConnections) else {
            await refuse(value)
            return
        }
        defer { count.leave() }
        await http.handle(value: value, logger: logger)
    }

    /// Answers 503 without waiting for a request, then closes.
    private func refuse(_ value: Value) async {
        let body = ByteBuffer(
            string: "{\"error\": \"the studio has \(maximumConnections) connections open, its most: try again.\", "
                + "\"field\": null}\n")
        var head = HTTPResponse(status: .serviceUnavailable)
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = "\(body.readableBytes)"
        head.headerFields[.connection] = "close"
        head.headerFields[.retryAfter] = "1"
        try? await value.executeThenClose { _, outbound in
            try await outbound.write(.head(head))
            try await outbound.write(.body(body))
            try await outbound.write(.end(nil))
        }
    }
}

extension Studio {
    /// The bounds on connections (`StudioChannel`).
    public struct ConnectionLimits: Sendable {
        /// Seconds a connection may stay idle, or wait for its request head, before it is closed.
        public var idleTimeout: Double
        /// The most connections open at once; more are answered 503 and closed.
        public var maximumConnections: Int

        /// 10 s idle, and at most 256 connections, or a quarter of the descriptors this process
        /// may open where that is less (`ulimit -n 1024` leaves room for 256).
        public static var standard: ConnectionLimits {
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            let descriptors = Int(clamping: limit.rlim_cur)  // RLIM_INFINITY is the largest value: no limit
            return ConnectionLimits(idleTimeout: 10, maximumConnections: max(8, min(256, descriptors / 4)))
        }

        public init(idleTimeout: Double, maximumConnections: Int) {
            self.idleTimeout = idleTimeout
            self.maximumConnections = maximumConnections
        }
    }

    /// The studio's HTTP server: HTTP/1.1 within `limits`.
    public static func server(limits: ConnectionLimits = .standard) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in StudioChannel(responder: responder, limits: limits) }
    }
}
