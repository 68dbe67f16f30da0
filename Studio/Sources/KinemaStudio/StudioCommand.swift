import ArgumentParser
import Foundation
import Hummingbird
import Logging

/// `kinema-studio`: serves the studio on this machine until SIGINT or SIGTERM, which stop it cleanly.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
public struct StudioCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "kinema-studio",
        abstract: "See, tune and export motion in a browser: a local web app on Kinema.",
        discussion: """
            Serves the studio at http://HOST:PORT/ (the page) and its JSON API under /api (described at \
            /openapi.json). Ctrl-C (SIGINT) or SIGTERM stops it after the requests in flight.

            Examples:
              kinema-studio
              kinema-studio --port 9000
            """
    )

    @Option(help: "The address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for every interface).")
    var host = "127.0.0.1"
    @Option(help: "The TCP port (default 8080).")
    var port = 8080
    @Option(name: .customLong("idle-timeout"), help: "Seconds before an idle connection is closed (default 10).")
    var idleTimeout = Studio.ConnectionLimits.standard.idleTimeout
    @Option(
        name: .customLong("max-connections"),
        help: "The most connections open at once; more are answered 503 (default 256, less under a low ulimit -n).")
    var maximumConnections = Studio.ConnectionLimits.standard.maximumConnections

    var limits: Studio.ConnectionLimits { .init(idleTimeout: idleTimeout, maximumConnections: maximumConnections) }

    public init() {}

    public mutating func run() async throws { try await serve() }

    /// Serves until SIGINT or SIGTERM (`run()`; named apart, so that top-level code reaches it
    /// without the synchronous `run()` of `ParsableCommand` taking the call).
    public func serve() async throws {
        guard (1...65_535).contains(port) else {
            throw ValidationError("'--port' must be an integer in 1…65535 (got \(port)).")
        }
        guard idleTimeout.isFinite, idleTimeout > 0, idleTimeout <= 86_400 else {
            throw ValidationError("'--idle-timeout' must be a number of seconds in (0, 86400] (got \(idleTimeout)).")
        }
        guard maximumConnections >= 1 else {
            throw ValidationError("'--max-connections' must be an integer ≥ 1 (got \(maximumConnections)).")
        }
        if let problem = PortProbe.problem(host: host, port: port) {
            FileHandle.standardError.write(Data("kinema-studio: error: \(problem)\n".utf8))
            throw ExitCode(1)
        }
        var logger = Logger(label: "kinema-studio")
        logger.logLevel = .warning
        let address = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/"
        let app = Application(
            router: Studio.router(host: host), server: Studio.server(limits: limits),
            configuration: .init(address: .hostname(host, port: port), serverName: "kinema-studio"),
            onServerRunning: { _ in
                FileHandle.standardError.write(Data("kinema-studio: serving \(address) (Ctrl-C stops it)\n".utf8))
            },
            logger: logger)
        let watchdog = Self.stopWithin(seconds: 0.8)
        defer { watchdog.forEach { $0.cancel() } }
        do {
            try await app.runService()
        } catch {
            FileHandle.standardError.write(Data("kinema-studio: error: cannot serve on \(address): \(error)\n".utf8))
            throw ExitCode(1)
        }
        FileHandle.standardError.write(Data("kinema-studio: stopped\n".utf8))
    }

    /// SIGINT and SIGTERM stop the server gracefully (`runService`); should requests still be in
    /// flight `seconds` later, the process ends then anyway, so that a signal always stops it
    /// within a second.
    static func stopWithin(seconds: Double) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { signal in
            Foundation.signal(signal, SIG_IGN)  // the sources below take it instead of the default action
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler {
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                    FileHandle.standardError.write(Data("kinema-studio: stopped (requests in flight cut off)\n".utf8))
                    _exit(0)
                }
            }
            source.resume()
            return source
        }
    }
}
