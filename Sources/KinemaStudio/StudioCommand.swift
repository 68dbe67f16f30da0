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

    public init() {}

    public mutating func run() async throws { try await serve() }

    /// Serves until SIGINT or SIGTERM (`run()`; named apart, so that top-level code reaches it
    /// without the synchronous `run()` of `ParsableCommand` taking the call).
    public func serve() async throws {
        guard (1...65_535).contains(port) else {
            throw ValidationError("'--port' must be an integer in 1…65535 (got \(port)).")
        }
        if let problem = PortProbe.problem(host: host, port: port) {
            FileHandle.standardError.write(Data("kinema-studio: error: \(problem)\n".utf8))
            throw ExitCode(1)
        }
        var logger = Logger(label: "kinema-studio")
        logger.logLevel = .warning
        let address = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/"
        let app = Application(
            router: Studio.router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "kinema-studio"),
            onServerRunning: { _ in
                FileHandle.standardError.write(Data("kinema-studio: serving \(address) (Ctrl-C stops it)\n".utf8))
            },
            logger: logger)
        do {
            try await app.runService()
        } catch {
            FileHandle.standardError.write(Data("kinema-studio: error: cannot serve on \(address): \(error)\n".utf8))
            throw ExitCode(1)
        }
        FileHandle.standardError.write(Data("kinema-studio: stopped\n".utf8))
    }
}
