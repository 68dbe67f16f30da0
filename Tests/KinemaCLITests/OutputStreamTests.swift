import Foundation
import Testing

/// What `kinema` does when its output cannot be written: one error line and exit 1 for a full disk
/// or a closed stdout, a quiet exit for a reader that went away, silence for a closed stderr;
/// never a trap.
@Suite struct OutputStreamTests {
    /// Runs `kinema ARGUMENTS REDIRECTIONS` through the shell (to close or redirect descriptors).
    static func shell(_ command: String) throws -> CLIResult {
        try CLI.run(
            ["-c", command], program: URL(fileURLWithPath: "/bin/sh"), environment: ["KINEMA": CLI.executable.path])
    }

    @Test func fullDiskIsOneErrorLine() throws {
        let result = try Self.shell(#""$KINEMA" easing linear > /dev/full"#)
        #expect(result.status == 1)
        #expect(result.stderr == "kinema: error: cannot write to standard output: No space left on device.\n")
    }

    @Test func closedStdoutIsOneErrorLine() throws {
        let result = try Self.shell(#""$KINEMA" easing linear >&-"#)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("kinema: error: cannot write to standard output:")
                && !result.stderr.contains("crash"))
    }

    @Test func closedStderrDoesNotStopTheData() throws {
        let result = try Self.shell(#""$KINEMA" easing linear --samples 3 2>&-"#)
        #expect(result.status == 0 && result.stdout == "t,value,velocity\n0.0,0.0,1.0\n0.5,0.5,1.0\n1.0,1.0,1.0\n")
    }

    @Test func readerThatGoesAwayEndsTheRunQuietly() throws {
        let result = try Self.shell(#""$KINEMA" easing linear --samples 2000000 | head -1"#)
        #expect(result.stdout.hasPrefix("t,value,velocity\n"))
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
    }

    @Test func brokenPipeStatusIsTheShellsSigpipeStatus() throws {
        // sh has no PIPESTATUS: write the status from inside the pipeline's first stage.
        let result = try Self.shell(
            #"{ "$KINEMA" easing linear --samples 2000000; echo $? >&2; } | head -1 > /dev/null"#)
        #expect(result.stderr == "141\n")
    }

    @Test func versionIsPrinted() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0 && result.stdout.hasPrefix("kinema "))
    }

    @Test func fineSweepStepsGiveDistinctRows() throws {
        let (header, rows) = try CLI.csv([
            "sweep", "--spring", "--stiffness", "1:1.000000000001:2e-13", "--damping", "1",
            "--duration", "0.5"
        ])
        #expect(header.first == "stiffness" && rows.count == 6)
        #expect(Set(rows.map { $0[0] }).count == rows.count)
    }
}
