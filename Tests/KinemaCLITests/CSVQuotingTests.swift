import Foundation
import Testing

/// Body and plane names with commas, quotes and line breaks stay one CSV field each (RFC 4180).
@Suite struct CSVQuotingTests {
    @Test func namesAreQuotedInTheHeaderAndTheEvents() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kinema-csv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = directory.appendingPathComponent("scene.json"),
            events = directory.appendingPathComponent("events.csv")
        try #"""
        { "dimensions": 1,
          "bodies": [ { "name": "a,b", "position": [1] }, { "name": "say \"hi\"\nthere", "position": [3] } ],
          "gravity": [-9.81],
          "planes": [ { "name": "floor, hard", "normal": [1], "offset": 0, "restitution": 0.5 } ] }
        """#.write(to: scene, atomically: true, encoding: .utf8)
        let result = try CLI.run(["simulate", "--scene", scene.path, "--duration", "1", "--events", events.path])
        #expect(result.status == 0, "\(result.stderr)")
        let header = try #require(result.stdout.components(separatedBy: "\n").first)
        #expect(header == #"t,"a,b.x","a,b.vx","say ""hi"""#)
        #expect(result.stdout.contains("there.x\",\"say \"\"hi\"\"\nthere.vx\"\n"))
        let impacts = try String(contentsOf: events, encoding: .utf8).split(separator: "\n")
        #expect(impacts.count >= 2 && impacts[1].contains(#","a,b","floor, hard","#))
    }
}
