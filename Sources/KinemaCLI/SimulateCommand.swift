import ArgumentParser
import Kinema
import KinemaReference

/// `kinema simulate`: a trajectory as CSV.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate a scene and print its trajectory as CSV.",
        discussion: """
            1-D single body: t,x,v. Otherwise, for each body: <body>.x,<body>.y[,<body>.z],<body>.vx,<body>.vy[,<body>.vz].
            --events FILE writes t,body,collider,speed_in,speed_out for every collision (speed_out 0: came to rest).

            Examples:
              kinema simulate --spring --response 0.5 --bounce 0.3 --integrator exact
              kinema simulate --spring --stiffness 170 --damping 26 --integrator rk4 --dt 0.001 --frame-rate 120 --frame-jitter 0.2 --seed 7
              kinema simulate --drop --height 1 --restitution 0.8 --sample-rate 1000 --events impacts.csv -o drop.csv
              kinema simulate --scene pendulum.json --duration 5 --integrator dop853 --tolerance 1e-12
            """
    )

    @OptionGroup var sceneOptions: SceneOptions
    @OptionGroup var simulation: SimulationOptions
    @Option(help: "Also write the collision events to FILE (CSV, atomically).")
    var events: String?
    @OptionGroup var output: OutputOptions

    /// Rows are written as the samples are reached (memory flat in their number, for every
    /// integrator, GSL's included, at a sample rate or driven by frames); with `-o` they go to a temporary file renamed when the run
    /// succeeds, so a failed run leaves no file.
    func run() throws {
        try DistinctFiles.check(
            outputs: [("-o", output.output), ("--events", events)],
            inputs: [("--scene", sceneOptions.values.flags[text: .scene])])
        let (scene, suggested, _) = try sceneOptions.values.makeScene()
        let duration = try simulation.values.resolvedDuration(default: suggested)
        var eventsFile: AtomicFile?
        try output.stream { write in
            // The header goes out with the first chunk of rows, so a run refused or unstable within
            // its first chunk of samples (`Simulation.defaultSamplesPerChunk`) prints nothing.
            var header: String? = Self.header(scene)
            func emit(_ samples: Trajectory) throws {
                try write((header ?? "") + Self.rows(samples))
                header = nil
            }
            let trajectory: Trajectory
            do {
                trajectory = try withoutActuallyEscaping({ try emit($0) }) { each in
                    try simulation.values.run(scene, duration: duration, each: each)
                }
            } catch let error as SimulationError {
                throw CLIError(error)
            } catch let error as GSLError {
                throw CLIError(error.description)
            }
            if header != nil { try emit(trajectory) }  // no samples at all: the header alone
            eventsFile = try events.map { try AtomicFile(path: $0, flag: "--events") }
            if let eventsFile {
                var text = "t,body,collider,speed_in,speed_out\n"
                for e in trajectory.events {
                    text += "\(e.time),\(CSV.field(e.body)),\(CSV.field(e.collider)),\(e.speedIn),\(e.speedOut)\n"
                }
                try eventsFile.write(text)
            }
        }
        try eventsFile?.commit()
    }

    /// The CSV header line: t,x,v for one body in 1-D, else t and each body's coordinates and velocities.
    static func header(_ scene: PhysicsScene) -> String {
        if scene.dimensions == 1 && scene.bodies.count == 1 { return "t,x,v\n" }
        // One string, written into: no per-column arrays and join for a scene of many bodies.
        var header = "t"
        header.reserveCapacity(scene.bodies.count * scene.dimensions * 2 * 12)
        let axes = ["x", "y", "z"].prefix(scene.dimensions)
        for body in scene.bodies {
            for prefix in ["", "v"] {
                for axis in axes { header += "," + CSV.field(body.name + "." + prefix + axis) }
            }
        }
        return header + "\n"
    }

    /// One CSV line per sample.
    static func rows(_ trajectory: Trajectory) -> String {
        let scene = trajectory.scene
        var text = ""
        text.reserveCapacity(trajectory.count * 24 * (1 + 2 * scene.coordinateCount))
        let d = scene.dimensions
        for i in 0..<trajectory.count {
            text += "\(trajectory.times[i])"
            for b in 0..<scene.bodies.count {
                for axis in 0..<d { text += ",\(trajectory.position(atSample: i, coordinate: b * d + axis))" }
                for axis in 0..<d { text += ",\(trajectory.velocity(atSample: i, coordinate: b * d + axis))" }
            }
            text += "\n"
        }
        return text
    }
}
