import Foundation
import Hummingbird
import Testing

@testable import KinemaStudio

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The API against the CLI: every export the bytes `kinema keyframes` prints for the same flags;
/// bad input a 400 naming the field with the CLI's message; work past the limits a 422.
struct StudioAPITests {
    /// One studio for the suite, served in this process on a free port (over real HTTP, through
    /// Foundation's URLSession: no test client of Hummingbird's, which would build a TLS stack).
    static let server: Task<Int, Error> = Task {
        let port = try Binaries.freePort()
        let app = Application(
            router: Studio.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)))
        Task { try await app.runService(gracefulShutdownSignals: []) }
        for _ in 0..<200 {
            if (try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/api/catalog")!)) != nil {
                return port
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CancellationError()
    }

    static func request(_ uri: String, method: String = "GET", body: String? = nil) async throws -> (
        status: Int, type: String, body: Data
    ) {
        let port = try await server.value
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(uri)")!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "Content-Type") ?? "", data)
    }

    static func post(_ body: String) async throws -> (status: Int, json: [String: Any]) {
        let answer = try await request("/api/bake", method: "POST", body: body)
        return (answer.status, (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:])
    }

    static func get(_ uri: String) async throws -> (status: Int, type: String, body: String) {
        let answer = try await request(uri)
        return (answer.status, answer.type, String(decoding: answer.body, as: UTF8.self))
    }

    /// Each request with the `kinema keyframes` flags that describe the same bake.
    @Test(arguments: [
        (
            #"{"source": "spring", "response": 0.5, "bounce": 0.3}"#,
            ["--spring", "--response", "0.5", "--bounce", "0.3"]
        ),
        (
            #"{"source": "spring", "motionDuration": 0.8, "motionBounce": 0.25, "tolerance": 0.0005}"#,
            ["--spring", "--motion-duration", "0.8", "--motion-bounce", "0.25", "--tolerance", "0.0005"]
        ),
        (
            #"{"source": "spring", "mass": 2, "stiffness": 300, "damping": 12, "from": -1, "to": 3}"#,
            ["--spring", "--mass", "2", "--stiffness", "300", "--damping", "12", "--from=-1", "--to", "3"]
        ),
        (
            #"{"source": "drop", "restitution": 0.6, "gravity": 15}"#,
            ["--drop", "--restitution", "0.6", "--gravity", "15"]
        ),
        (
            #"{"source": "easing", "easing": "damped-cosine(5,30)", "duration": 1.5}"#,
            ["--easing", "damped-cosine(5,30)", "--duration", "1.5"]
        ),
        (
            #"{"source": "easing", "easing": "bounce-out", "strategy": "turning-points"}"#,
            ["--easing", "bounce-out", "--strategy", "turning-points"]
        )
    ])
    func exportsAreTheCLIsBytes(_ body: String, _ flags: [String]) async throws {
        let answer = try await Self.post(body)
        #expect(answer.status == 200, "\(answer.json)")
        let exports = try #require(answer.json["exports"] as? [String: String])
        let spring = flags[0] == "--spring"
        #expect(
            Set(exports.keys)
                == Set(["json", "css", "lottie", "swift", "swiftui"] + (spring ? ["retargetable", "js"] : [])))
        for (format, text) in exports {
            // The retargetable exports take the dialect and the tolerance, not the ends or the duration.
            var arguments = flags
            if format == "retargetable" || format == "js" {
                arguments = []
                for (i, flag) in flags.enumerated()
                where !flag.hasPrefix("--from") && !["--to", "--duration"].contains(flag) {
                    if i > 0 && ["--to", "--duration"].contains(flags[i - 1]) { continue }
                    arguments.append(flag)
                }
                arguments += ["--retargetable"]
            }
            let cli = try Binaries.kinema(
                ["keyframes"] + arguments + ["--format", format == "retargetable" ? "json" : format])
            #expect(cli.status == 0)
            #expect(text == cli.stdout, "\(format) differs from kinema keyframes \(flags)")
        }
        // The readouts are the bake's: its keyframe count and max error, from the JSON export.
        let json = try JSONSerialization.jsonObject(with: Data(exports["json"]!.utf8)) as? [String: Any]
        #expect((json?["values"] as? [Any])?.count == answer.json["keyframes"] as? Int)
        #expect(json?["maxError"] as? Double == answer.json["maxError"] as? Double)
    }

    /// The repository's examples/ folder, where the scene examples come from.
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../examples").standardized

    /// The scene tab's examples are the repository's files, byte for byte.
    @Test func theSceneExamplesAreTheRepositorysFiles() throws {
        for example in SceneExamples.all {
            let file = try String(contentsOf: Self.examples.appendingPathComponent(example.file), encoding: .utf8)
            #expect(example.text == file, "\(example.file)")
        }
    }

    /// A scene (each example, and one edited as the page's sliders edit it) baked on a canvas: every
    /// export the bytes `kinema keyframes --scene FILE --canvas 640x360` prints, each export's
    /// size its bytes, the readouts the JSON export's.
    @Test(arguments: SceneExamples.all.map(\.file) + ["edited"])
    func sceneExportsAreTheCLIsBytes(_ file: String) async throws {
        var text = SceneExamples.all[0].text, duration = 1.0
        if let example = SceneExamples.all.first(where: { $0.file == file }) {
            (text, duration) = (example.text, example.duration)
        } else {
            text = text.replacingOccurrences(of: "-9.81", with: "-4").replacingOccurrences(of: "0.9", with: "0.5")
        }
        let scene = FileManager.default.temporaryDirectory.appendingPathComponent("studio-scene-\(file)")
        try text.write(to: scene, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: scene) }
        // Every scene but the first is asked with its planes drawn.
        let drawsPlanes = file != SceneExamples.all[0].file
        let answer = try await Self.post(
            "{\"source\": \"scene\", \"scene\": \(JSONText.string(text)), \"duration\": \(duration), \"pixelTolerance\": 0.4, \"drawPlanes\": \(drawsPlanes)}"
        )
        #expect(answer.status == 200, "\(answer.json)")
        let exports = try #require(answer.json["exports"] as? [String: String])
        let bytes = try #require(answer.json["bytes"] as? [String: Int])
        #expect(Set(exports.keys) == ["json", "css", "lottie", "swift", "swiftui"])
        for (format, export) in exports {
            let cli = try Binaries.kinema(
                [
                    "keyframes", "--scene", scene.path, "--canvas", "640x360", "--duration", "\(duration)",
                    "--pixel-tolerance", "0.4", "--format", format
                ] + (drawsPlanes ? ["--draw-planes"] : []))
            #expect(cli.status == 0)
            #expect(export == cli.stdout, "\(format) of \(file) differs from kinema keyframes")
            #expect(bytes[format] == export.utf8.count)
        }
        let json = try JSONSerialization.jsonObject(with: Data(exports["json"]!.utf8)) as? [String: Any]
        let bodies = try #require(json?["bodies"] as? [[String: Any]])
        let drawn = try #require(answer.json["bodies"] as? [[String: Any]])
        #expect(drawn.map { $0["name"] as? String } == bodies.map { $0["name"] as? String })
        #expect(drawn.map { $0["maxError"] as? Double } == bodies.map { $0["maxError"] as? Double })
        let planes = (json?["planes"] as? [[String: Any]] ?? []).map { $0["name"] as? String }
        #expect(answer.json["planes"] as? [String] == planes.compactMap { $0 })
        #expect(planes.isEmpty != drawsPlanes)
        #expect(answer.json["keyframes"] as? Int == bodies.map { $0["keyframeCount"] as? Int ?? 0 }.reduce(0, +))
        #expect(json?["maxError"] as? Double == answer.json["maxError"] as? Double)
        #expect((answer.json["maxError"] as? Double ?? 1) <= 0.4)
    }

    @Test(arguments: [
        (#"{"source": "scene"}"#, "scene", "'scene' is needed"),
        (#"{"source": "scene", "scene": "{\"dimensions\": 2,"}"#, "scene", "invalid JSON"),
        (#"{"source": "scene", "scene": {"dimensions": 2}}"#, "scene", "must be a string"),
        (
            #"{"source": "scene", "scene": "{\"dimensions\": 2, \"bodies\": [{\"name\": \"a\", \"position\": [0, 0], \"radius\": -1}]}", "duration": 1}"#,
            "scene", "radius"
        ),
        (
            #"{"source": "scene", "scene": "{\"dimensions\": 2, \"bodies\": [{\"name\": \"a\", \"position\": [0, 0]}]}", "duration": 1, "canvas": "0x480"}"#,
            "canvas", "with a width of 1 to 16384 pixels"
        ),
        (
            #"{"source": "scene", "scene": "{\"dimensions\": 1, \"bodies\": [{\"name\": \"a\", \"position\": [0]}]}", "duration": 1}"#,
            "canvas", "1 dimension"
        ),
        (
            #"{"source": "scene", "scene": "{\"dimensions\": 2, \"bodies\": [{\"name\": \"a\", \"position\": [0, 0]}]}"}"#,
            "duration", "is needed"
        )
    ])
    func badScenesAreA400NamingTheField(_ body: String, _ field: String?, _ message: String) async throws {
        let answer = try await Self.post(body)
        #expect(answer.status == 400, "\(answer.json)")
        #expect(answer.json["field"] as? String == field, "\(answer.json)")
        #expect((answer.json["error"] as? String)?.contains(message) == true, "\(answer.json)")
    }

    /// Past 16 bodies or 10 s a scene is refused before it runs.
    @Test func scenesPastTheLimitsAreA422() async throws {
        let bodies = (0...BakeRequest.Limit.sceneBodies).map {
            "{\"name\": \"b\($0)\", \"position\": [\(Double($0) * 0.3), 1], \"radius\": 0.1}"
        }
        let crowd = "{\"dimensions\": 2, \"bodies\": [\(bodies.joined(separator: ", "))]}"
        let one = #"{\"dimensions\": 2, \"bodies\": [{\"name\": \"a\", \"position\": [0, 0]}]}"#
        for (body, field) in [
            ("{\"source\": \"scene\", \"scene\": \(JSONText.string(crowd)), \"duration\": 1}", "scene"),
            (#"{"source": "scene", "scene": "\#(one)", "duration": 20}"#, "duration")
        ] {
            let answer = try await Self.post(body)
            #expect(answer.status == 422, "\(answer.json)")
            #expect(answer.json["field"] as? String == field, "\(answer.json)")
        }
    }

    /// The plotted curve is the motion: a spring's samples against its closed form.
    @Test func theCurveIsTheMotion() async throws {
        let answer = try await Self.post(#"{"source": "spring", "stiffness": 100, "dampingRatio": 0.3}"#)
        let curve = try #require(answer.json["curve"] as? [String: [Double]])
        let (t, x) = (curve["t"]!, curve["motion"]!)
        let omega = 10.0, zeta = 0.3, damped = omega * (1 - zeta * zeta).squareRoot()
        for (time, value) in zip(t, x) {
            let exact =
                1 - exp(-zeta * omega * time) * (cos(damped * time) + zeta * omega / damped * sin(damped * time))
            #expect(abs(value - exact) <= 1e-6, "t = \(time)")
        }
        let spring = try #require(answer.json["spring"] as? [String: Any])
        #expect(abs((spring["dampingRatio"] as? Double ?? 0) - 0.3) <= 1e-12)
    }

    @Test(arguments: [
        (#"{"source": "spring", "response": 0.5, "bounce": 3}"#, "bounce", "'--bounce' must be a number in (−1, 1]"),
        (#"{"source": "spring", "response": 0.5}"#, "response", "needs '--damping-ratio' or '--bounce'"),
        (#"{"source": "spring", "response": "fast", "bounce": 0.2}"#, "response", "must be a number"),
        (#"{"source": "spring", "response": 0.5, "bounce": 0.2, "colour": 1}"#, "colour", "is not a field"),
        (#"{"source": "rocket"}"#, "source", "one of easing, spring, drop"),
        (#"{"response": 0.5}"#, "source", "one of easing, spring, drop"),
        (#"{"source": "easing", "easing": "wobble"}"#, nil, "wobble"),
        (#"{"source": "easing"}"#, "easing", "is needed"),
        (#"{"source": "drop", "restitution": true}"#, "restitution", "must be a number"),
        // A canvas bounds the error in pixels: a fraction of the travel is no field of a scene.
        (#"{"source": "scene", "scene": "{}", "tolerance": 0.01}"#, "tolerance", "is not a field of a scene bake"),
        (#"{"source": "spring", "response": 0.5, "bounce": 0.2, "dt": 0.01}"#, "dt", "is not a field"),
        // Taken silently before, the decoder keeping one of the two.
        (#"{"source": "spring", "response": 0.5, "bounce": 0.2, "bounce": 0.9}"#, "bounce", "given twice"),
        (#"[1, 2]"#, nil, "JSON object"),
        (#"not json"#, nil, "not valid JSON"),
        // Read as 0 (and reported as "got 0.0") or called "not a number" before.
        (#"{"source": "spring", "stiffness": 100, "damping": 10, "mass": 1e-400}"#, nil, "1e-400 is too small"),
        (#"{"source": "spring", "stiffness": 1e999, "damping": 10}"#, nil, "1e999 is out of range")
    ])
    func badInputIsA400NamingTheField(_ body: String, _ field: String?, _ message: String) async throws {
        let answer = try await Self.post(body)
        #expect(answer.status == 400)
        #expect(answer.json["field"] as? String == field)
        #expect((answer.json["error"] as? String)?.contains(message) == true, "\(answer.json)")
    }

    @Test(arguments: [
        (#"{"source": "spring", "response": 0.5, "bounce": 0.3, "tolerance": 1e-9}"#, "tolerance"),
        (#"{"source": "easing", "easing": "linear", "duration": 1000}"#, "duration"),
        (#"{"source": "easing", "easing": "linear", "fps": 1e6}"#, "fps"),
        (#"{"source": "spring", "response": 0.5, "bounce": 0.999}"#, "duration"),
        (#"{"source": "spring", "response": 0.02, "bounce": 0.9, "duration": 30}"#, "duration"),
        (#"{"source": "drop", "restitution": 0.999}"#, "duration"),
        // Each of these stopped the studio on an integer overflow while writing its message.
        (#"{"source": "spring", "stiffness": 1e38, "damping": 1}"#, "duration"),
        (#"{"source": "spring", "stiffness": 1e308, "damping": 1}"#, "duration"),
        (#"{"source": "spring", "tension": 1e300, "friction": 1}"#, "duration"),
        (#"{"source": "spring", "stiffness": 1e30, "damping": 1e-30, "mass": 1e-8, "duration": 30}"#, "duration"),
        // Minutes of work before: 100,000 swings, and a drop of about 350,000 impacts.
        (#"{"source": "easing", "easing": "elastic-out(1,0.00001)", "duration": 30}"#, "duration"),
        (
            #"{"source": "drop", "restitution": 0.9999, "restVelocity": 1e-12, "gravity": 1e6, "duration": 30, "tolerance": 1e-5}"#,
            "duration"
        )
    ])
    func workPastTheLimitsIsA422(_ body: String, _ field: String) async throws {
        let answer = try await Self.post(body)
        #expect(answer.status == 422, "\(answer.json)")
        #expect(answer.json["field"] as? String == field)
    }

    /// A raw request with exactly `headers` (URLSession sets Host and Content-Type itself), and
    /// the status of the answer.
    static func raw(_ headers: [String], body: String = #"{"source": "easing", "easing": "linear"}"#) async throws
        -> Int
    {
        let port = try await server.value
        let request =
            "POST /api/bake HTTP/1.1\r\n" + headers.map { $0 + "\r\n" }.joined()
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        // A blocking socket on a thread of its own: on the cooperative threads or GCD's (two on two
        // cores) it would hold the threads the in-process server answers and bakes on.
        let answer: String = try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try RawHTTP.exchange(request, port: port) }) }.start()
        }
        return Int(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// The defences against DNS rebinding and cross-site requests: each of these got 200 before.
    @Test(arguments: [
        (["Host: evil.example", "Content-Type: application/json"], 403),
        (["Host: 127.0.0.1.evil.example", "Content-Type: application/json"], 403),
        (["Content-Type: application/json"], 400),
        (["Host: 127.0.0.1", "Content-Type: text/plain"], 415),
        (["Host: 127.0.0.1", "Content-Type: application/x-www-form-urlencoded"], 415),
        (["Host: 127.0.0.1", "Content-Type: multipart/form-data; boundary=x"], 415),
        (["Host: 127.0.0.1"], 415),
        (["Host: 127.0.0.1", "Origin: null", "Content-Type: application/json"], 403),
        (["Host: 127.0.0.1", "Origin: https://another.site", "Content-Type: text/plain"], 403),
        (["Host: 127.0.0.1", "Sec-Fetch-Site: cross-site", "Content-Type: application/json"], 403),
        (["Host: localhost", "Origin: http://localhost", "Content-Type: application/json; charset=utf-8"], 200),
        (["Host: 127.0.0.1", "Sec-Fetch-Site: same-origin", "Content-Type: application/json"], 200)
    ])
    func onlyThisMachinesPagesMayPost(_ headers: [String], _ status: Int) async throws {
        #expect(try await Self.raw(headers) == status)
    }

    /// A page on another site sending the request that overflowed, as a simple request.
    @Test func aCrossSiteRequestCannotStopTheStudio() async throws {
        let stiff = #"{"source": "spring", "stiffness": 1e38, "damping": 1}"#
        #expect(
            try await Self.raw(
                ["Host: 127.0.0.1", "Origin: https://another.site", "Content-Type: text/plain"], body: stiff) == 403)
        #expect(try await Self.get("/api/catalog").status == 200)
    }

    @Test func aBodyPastTheLimitIsA413() async throws {
        let answer = try await Self.post("{\"source\": \"" + String(repeating: "a", count: 20_000) + "\"}")
        #expect(answer.status == 413)
        #expect(answer.json["error"] != nil)
    }

    /// A path the studio does not serve was a 404 with an empty body.
    @Test func anUnknownPathIsA404NamingThePathsServed() async throws {
        let answer = try await Self.request("/api/bakes")
        let json = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        #expect(answer.status == 404)
        #expect((json?["error"] as? String)?.contains("/api/bake, /api/catalog") == true, "\(String(describing: json))")
    }

    @Test func thePageItsFilesAndTheOpenAPIDocument() async throws {
        let page = try await Self.get("/")
        #expect(page.status == 200 && page.type.hasPrefix("text/html"))
        #expect(page.body.contains("/studio.js") && !page.body.contains("http://") && !page.body.contains("https://"))
        #expect(page.body.contains("<script type=\"module\" src=\"/playground.js\">"))
        for (uri, type) in [
            ("/studio.js", "text/javascript"), ("/studio.css", "text/css"), ("/playground.js", "text/javascript"),
            ("/kinema-spring.js", "text/javascript")
        ] {
            let file = try await Self.get(uri)
            #expect(file.status == 200 && file.type.hasPrefix(type) && !file.body.isEmpty)
            #expect(!file.body.contains("https://"), "\(uri) fetches from elsewhere")
        }
        // The player is the repository's file, as `kinema keyframes --retargetable --format js` writes it.
        let player = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../../Sources/KinemaCLI/Resources/kinema-spring.js").standardized,
            encoding: .utf8)
        #expect(try await Self.get("/kinema-spring.js").body == player)
        let document = try await Self.get("/openapi.json")
        let openapi = try JSONSerialization.jsonObject(with: Data(document.body.utf8)) as? [String: Any]
        let paths = try #require(openapi?["paths"] as? [String: Any])
        #expect(Set(paths.keys) == ["/api/bake", "/api/catalog"])
        // The request's fields are the ones the studio reads: every kind's, each of its type.
        let schemas = try #require((openapi?["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let request = try #require((schemas["BakeRequest"] as? [String: Any])?["properties"] as? [String: Any])
        var fields = ["source": "string"]
        for parameter in BakeRequest.fields.values.joined() {
            switch parameter.kind {
            case .text: fields[parameter.name] = "string"
            case .number: fields[parameter.name] = "number"
            case .flag: fields[parameter.name] = "boolean"
            }
        }
        #expect(request.mapValues { ($0 as? [String: Any])?["type"] as? String } == fields)
        #expect(fields["dampingRatio"] == "number" && fields["canvas"] == "string" && fields["height"] == "number")
        #expect(fields["drawPlanes"] == "boolean")
        let catalog = try await Self.get("/api/catalog")
        let json = try JSONSerialization.jsonObject(with: Data(catalog.body.utf8)) as? [String: Any]
        #expect((json?["easings"] as? [String])?.contains("bounce-out") == true)
        #expect((json?["formats"] as? [String]) == ["json", "css", "lottie", "swift", "swiftui"])
        #expect((json?["scenes"] as? [[String: Any]])?.map { $0["file"] as? String } == SceneExamples.all.map(\.file))
    }
}
