/// The scene tab's examples: the 2-D scenes of the repository's examples/ folder, as their files
/// are (a test compares them), each with the duration the tab bakes it for.
enum SceneExamples {
    static let all: [(file: String, label: String, duration: Double, text: String)] = [
        (
            "three-balls-box-2d.json", "Three balls in a box", 3,
            #"""
            {
             "dimensions": 2,
             "gravity": [
              0,
              -9.81
             ],
             "bodies": [
              {
               "name": "red",
               "radius": 0.08,
               "position": [
                0.25,
                0.8
               ],
               "velocity": [
                1.2,
                0.5
               ]
              },
              {
               "name": "green",
               "radius": 0.06,
               "position": [
                0.5,
                0.5
               ],
               "velocity": [
                -0.8,
                1.5
               ]
              },
              {
               "name": "blue",
               "radius": 0.1,
               "position": [
                0.75,
                0.3
               ],
               "velocity": [
                0.4,
                -1.0
               ]
              }
             ],
             "planes": [
              {
               "name": "floor",
               "normal": [
                0,
                1
               ],
               "offset": 0,
               "restitution": 0.8
              },
              {
               "name": "left",
               "normal": [
                1,
                0
               ],
               "offset": 0,
               "restitution": 0.8
              },
              {
               "name": "right",
               "normal": [
                -1,
                0
               ],
               "offset": -1,
               "restitution": 0.8
              },
              {
               "name": "ceiling",
               "normal": [
                0,
                -1
               ],
               "offset": -1,
               "restitution": 0.8
              }
             ],
             "contacts": {
              "restitution": 0.9
             }
            }

            """#
        ),
        (
            "pile-12-2d.json", "A 12-ball pile", 1,
            #"""
            {
             "dimensions": 2,
             "gravity": [
              0,
              -9.81
             ],
             "bodies": [
              {
               "name": "b0",
               "radius": 0.05,
               "position": [
                0.2903717016735131,
                0.5353833802367615
               ],
               "velocity": [
                -0.2600896669038415,
                0.20784007719238895
               ]
              },
              {
               "name": "b1",
               "radius": 0.05,
               "position": [
                0.6005762432864432,
                0.1524230873918505
               ],
               "velocity": [
                -0.9736640168902517,
                0.67493816419292
               ]
              },
              {
               "name": "b2",
               "radius": 0.05,
               "position": [
                0.3074832114624061,
                0.2874647688373571
               ],
               "velocity": [
                0.9912896710209256,
                -0.05947298495510411
               ]
              },
              {
               "name": "b3",
               "radius": 0.05,
               "position": [
                0.769169161019511,
                0.48108256695946794
               ],
               "velocity": [
                0.2781362810883239,
                -0.6987671519529521
               ]
              },
              {
               "name": "b4",
               "radius": 0.05,
               "position": [
                0.6078885266281507,
                0.7944362457146374
               ],
               "velocity": [
                0.046362420766602686,
                0.4825037124029805
               ]
              },
              {
               "name": "b5",
               "radius": 0.05,
               "position": [
                0.7065841970294539,
                0.572879666345054
               ],
               "velocity": [
                -0.39746468096857535,
                -0.9379764970605
               ]
              },
              {
               "name": "b6",
               "radius": 0.05,
               "position": [
                0.41597072320059514,
                0.7407270167881826
               ],
               "velocity": [
                -0.11075788789847874,
                0.8711734434090421
               ]
              },
              {
               "name": "b7",
               "radius": 0.05,
               "position": [
                0.8030933282704333,
                0.17796344778470177
               ],
               "velocity": [
                -0.7280622795986622,
                -0.5660261175337253
               ]
              },
              {
               "name": "b8",
               "radius": 0.05,
               "position": [
                0.6013186326934432,
                0.3408209587404043
               ],
               "velocity": [
                0.014485967658119048,
                -0.2282674823101949
               ]
              },
              {
               "name": "b9",
               "radius": 0.05,
               "position": [
                0.7851204531174045,
                0.8927917158950521
               ],
               "velocity": [
                0.34254708432503644,
                -0.6738007560578605
               ]
              },
              {
               "name": "b10",
               "radius": 0.05,
               "position": [
                0.3279659695889642,
                0.1507684617161835
               ],
               "velocity": [
                0.7078849768453603,
                0.9796120298431625
               ]
              },
              {
               "name": "b11",
               "radius": 0.05,
               "position": [
                0.1708144744877827,
                0.7404762570060015
               ],
               "velocity": [
                -0.17907634530818228,
                -0.6984692510943808
               ]
              }
             ],
             "planes": [
              {
               "name": "floor",
               "normal": [
                0,
                1
               ],
               "offset": 0,
               "restitution": 0.5
              },
              {
               "name": "left",
               "normal": [
                1,
                0
               ],
               "offset": 0,
               "restitution": 0.5
              },
              {
               "name": "right",
               "normal": [
                -1,
                0
               ],
               "offset": -1,
               "restitution": 0.5
              }
             ],
             "contacts": {
              "restitution": 0.5
             }
            }

            """#
        ),
        (
            "ball-on-spring-2d.json", "A ball on a 2-D spring", 2,
            #"""
            {
              "dimensions": 2,
              "bodies": [
                { "name": "ball", "mass": 1, "position": [0.5, 1.0], "velocity": [1.0, 0.0], "radius": 0.05 }
              ],
              "springs": [
                { "body": "ball", "anchor": [0.0, 1.0], "stiffness": 40, "damping": 0.5, "restLength": 0.5 }
              ],
              "gravity": [0, -9.81],
              "planes": [
                { "name": "floor", "normal": [0, 1], "offset": 0, "restitution": 0.6, "friction": 0.1 }
              ]
            }

            """#
        )
    ]
}
