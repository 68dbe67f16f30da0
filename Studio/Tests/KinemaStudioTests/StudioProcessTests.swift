import Foundation
import Testing

/// The `kinema-studio` binary as a user runs it: it refuses a port in use with one clear line, and
/// SIGINT or SIGTERM stop it cleanly (exit 0, "stopped").
@Suite(.serialized)
struct StudioProcessTests {
    /// A started studio and what it prints on stderr.
    final class Server: @unchecked Sendable {
        let process = Process()
        private let pipe = Pipe()
        private let lock = NSLock()
        private var text = ""

        init(_ arguments: [String]) throws {
            process.executableURL = Binaries.url("kinema-studio")
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = pipe
            try process.run()
            // A blocking read loop on a thread of its own, not `readabilityHandler`: on Linux,
            // tearing down its dispatch read source races the descriptor's close and can crash
            // the test process (swift-corelibs-libdispatch issue 949).
            let descriptor = pipe.fileHandleForReading.fileDescriptor
            Thread { [weak self] in
                var buffer = [UInt8](repeating: 0, count: 4_096)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0, let self else { return }  // the end of the stream, or of the test
                    let text = String(decoding: buffer[..<count], as: UTF8.self)
                    self.lock.withLock { self.text += text }
                }
            }.start()
        }

        var stderr: String { lock.withLock { text } }

        /// Waits up to `seconds` for `condition`.
        func wait(_ seconds: Double, until condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return condition()
        }
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsItCleanly(_ signal: Int32) throws {
        let port = try Binaries.freePort()
        let server = try Server(["--port", "\(port)"])
        #expect(server.wait(30) { server.stderr.contains("serving http://127.0.0.1:\(port)/") }, "\(server.stderr)")
        kill(server.process.processIdentifier, signal)
        #expect(server.wait(10) { !server.process.isRunning }, "still running after the signal")
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
        #expect(server.wait(2) { server.stderr.contains("kinema-studio: stopped") }, "\(server.stderr)")
    }

    /// A started studio on a free port, once it serves.
    static func serving(_ arguments: [String] = []) throws -> (Server, Int) {
        let port = try Binaries.freePort()
        let server = try Server(["--port", "\(port)"] + arguments)
        #expect(server.wait(30) { server.stderr.contains("serving") }, "\(server.stderr)")
        return (server, port)
    }

    /// A request waiting for its body holds a task until the body's deadline (10 s): the signal
    /// still ends the process within a second (it waited for the request before).
    @Test func aSignalStopsItWithinASecondWhateverIsInFlight() throws {
        let (server, port) = try Self.serving()
        let client = try RawHTTP.connect(port: port)
        defer { close(client) }
        RawHTTP.send(
            "POST /api/bake HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
            to: client)
        Thread.sleep(forTimeInterval: 0.3)
        let start = Date()
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.wait(5) { !server.process.isRunning })
        #expect(Date().timeIntervalSince(start) < 1.5, "stopped after \(Date().timeIntervalSince(start)) s")
        #expect(server.process.terminationStatus == 0)
    }

    /// Past `--max-connections` a new connection is answered 503 at once, without a request;
    /// when one closes, the next is served.
    @Test func connectionsPastTheCapAreRefusedAtOnce() throws {
        let (server, port) = try Self.serving(["--max-connections", "2", "--idle-timeout", "30"])
        defer { server.process.terminate() }
        let held = try (0..<2).map { _ in try RawHTTP.connect(port: port) }
        Thread.sleep(forTimeInterval: 0.3)
        let refused = try RawHTTP.exchange("", port: port)
        #expect(refused.hasPrefix("HTTP/1.1 503"), "\(refused)")
        #expect(refused.contains("connections open"))
        close(held[0])
        Thread.sleep(forTimeInterval: 0.3)
        let served = try RawHTTP.exchange(
            "GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
        #expect(served.hasPrefix("HTTP/1.1 200"), "\(served.prefix(80))")
        close(held[1])
    }

    /// A client that sends its request head a byte at a time, or nothing, is closed at the idle
    /// timeout (it was kept open indefinitely).
    @Test func aSlowClientIsClosedAtTheIdleTimeout() throws {
        let (server, port) = try Self.serving(["--idle-timeout", "1"])
        defer { server.process.terminate() }
        let client = try RawHTTP.connect(port: port)
        defer { close(client) }
        let start = Date()
        RawHTTP.send("GET / HT", to: client)
        let answer = RawHTTP.receive(from: client)
        let waited = Date().timeIntervalSince(start)
        #expect(answer.isEmpty || answer.hasPrefix("HTTP/1.1 4"), "\(answer)")
        #expect(waited >= 0.9 && waited < 5, "closed after \(waited) s")
    }

    @Test func aPortInUseIsRefusedWithAClearMessage() throws {
        let port = try Binaries.freePort()
        let first = try Server(["--port", "\(port)"])
        defer { first.process.terminate() }
        #expect(first.wait(30) { first.stderr.contains("serving") }, "\(first.stderr)")
        let second = try Server(["--port", "\(port)"])
        #expect(second.wait(30) { !second.process.isRunning })
        #expect(second.process.terminationStatus == 1)
        #expect(second.stderr.contains("port \(port) on 127.0.0.1 is in use"), "\(second.stderr)")
        #expect(second.stderr.split(separator: "\n").count == 1)
    }

    @Test(arguments: [["--port", "0"], ["--port", "70000"], ["--host", "not an address"], ["--colour", "red"]])
    func badFlagsAreOneLineErrors(_ arguments: [String]) throws {
        let server = try Server(arguments)
        #expect(server.wait(30) { !server.process.isRunning })
        #expect(server.process.terminationStatus != 0)
        #expect(!server.stderr.isEmpty && !server.stderr.contains("serving"), "\(server.stderr)")
    }
}
