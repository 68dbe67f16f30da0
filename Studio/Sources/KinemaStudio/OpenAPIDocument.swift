import KinemaCLI

/// `GET /openapi.json`: the API the page uses, and nothing else, as OpenAPI 3.0.
enum OpenAPIDocument {
    /// The document, with a bake request's fields as `BakeRequest` reads them.
    static let json = template.replacingOccurrences(of: "BAKE_REQUEST_PROPERTIES", with: requestProperties)

    /// `source`, then every field of every kind of motion, each a number, a string or a boolean (what each
    /// means is its flag's help in `kinema keyframes --help`).
    static var requestProperties: String {
        let kinds = MotionRequest.Kind.allCases.map { JSONText.string($0.rawValue) }.joined(separator: ", ")
        var properties = [("source", #"{"type": "string", "enum": [\#(kinds)]}"#)]
        var named: Set<String> = []
        for kind in MotionRequest.Kind.allCases {
            for field in MotionRequest.parameters(of: kind) where named.insert(field.name).inserted {
                properties.append((field.name, #"{"type": "\#(field.kind.jsonType)"}"#))
            }
        }
        return JSONText.object(properties)
    }

    private static let template = #"""
        {
          "openapi": "3.0.3",
          "info": {
            "title": "Kinema Studio",
            "version": "1.0.0",
            "description": "Bake a motion (an easing, a spring in any dialect, a drop, or a scene drawn on a canvas) into keyframes. Every export is the text `kinema keyframes --format FORMAT` prints for the same flags; fields are the flags' names in camelCase, each meaning what its flag's help in `kinema keyframes --help` says. Errors name the field and the rule, as the CLI's messages do."
          },
          "paths": {
            "/api/catalog": {
              "get": {
                "operationId": "catalog",
                "summary": "The easings, spring dialects, export formats and limits",
                "responses": {
                  "200": {
                    "description": "The catalog",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Catalog"}}}
                  }
                }
              }
            },
            "/api/bake": {
              "post": {
                "operationId": "bake",
                "summary": "Bake a motion into keyframes, with every export",
                "requestBody": {
                  "required": true,
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/BakeRequest"}}}
                },
                "responses": {
                  "200": {
                    "description": "The keyframes, their error, the plotted curves and every export; for a scene, each body's keyframes and error in pixels and every export with its size",
                    "content": {"application/json": {"schema": {"oneOf": [{"$ref": "#/components/schemas/Bake"}, {"$ref": "#/components/schemas/SceneBake"}]}}}
                  },
                  "400": {
                    "description": "A malformed body or a value a field does not take (the CLI's message)",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
                  },
                  "403": {
                    "description": "A Host other than a loopback one or the studio's --host, or a request from another origin or site",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
                  },
                  "408": {
                    "description": "A body that did not arrive within 10 s",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
                  },
                  "413": {
                    "description": "A body larger than 16 KiB",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
                  },
                  "415": {
                    "description": "A body not sent as Content-Type: application/json",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
                  },
                  "422": {
                    "description": "Work past the studio's limits (duration 30 s, tolerance 1e-5, fps 1000, 300 oscillations, 10,000 keyframes; a scene: 16 bodies, 10 s), refused before any computing",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
                  },
                  "503": {
                    "description": "The studio has its most connections open",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
                  }
                }
              }
            }
          },
          "components": {
            "schemas": {
              "BakeRequest": {
                "type": "object",
                "additionalProperties": false,
                "required": ["source"],
                "properties": BAKE_REQUEST_PROPERTIES
              },
              "Bake": {
                "type": "object",
                "additionalProperties": false,
                "required": ["keyframes", "maxError", "duration", "settlingTime", "curve", "knots", "spring", "exports"],
                "properties": {
                  "keyframes": {"type": "integer", "minimum": 2},
                  "maxError": {"type": "number", "minimum": 0},
                  "duration": {"type": "number", "exclusiveMinimum": true, "minimum": 0},
                  "settlingTime": {"type": "number", "minimum": 0},
                  "curve": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["t", "motion", "keyframed"],
                    "properties": {
                      "t": {"type": "array", "items": {"type": "number"}},
                      "motion": {"type": "array", "items": {"type": "number", "nullable": true}},
                      "keyframed": {"type": "array", "items": {"type": "number", "nullable": true}}
                    }
                  },
                  "knots": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["t", "value"],
                    "properties": {
                      "t": {"type": "array", "items": {"type": "number"}},
                      "value": {"type": "array", "items": {"type": "number", "nullable": true}}
                    }
                  },
                  "spring": {
                    "type": "object",
                    "nullable": true,
                    "description": "The spring in every dialect (`kinema spring --format json`); null for easings and drops",
                    "additionalProperties": {"oneOf": [{"type": "number", "nullable": true}, {"type": "string"}]}
                  },
                  "exports": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["json", "css", "lottie", "swift", "swiftui"],
                    "properties": {
                      "json": {"type": "string"}, "css": {"type": "string"}, "lottie": {"type": "string"},
                      "swift": {"type": "string"}, "swiftui": {"type": "string"},
                      "retargetable": {"type": "string", "description": "Springs: `kinema keyframes --retargetable`"},
                      "js": {"type": "string", "description": "Springs: `kinema keyframes --retargetable --format js`"}
                    }
                  }
                }
              },
              "SceneBake": {
                "type": "object",
                "additionalProperties": false,
                "required": ["keyframes", "maxError", "tolerance", "duration", "canvas", "bodies", "planes", "bytes", "exports"],
                "properties": {
                  "keyframes": {"type": "integer", "minimum": 0},
                  "maxError": {"type": "number", "minimum": 0, "description": "Pixels, as the JSON export states it"},
                  "tolerance": {"type": "number", "minimum": 0},
                  "duration": {"type": "number", "exclusiveMinimum": true, "minimum": 0},
                  "canvas": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["width", "height"],
                    "properties": {"width": {"type": "number"}, "height": {"type": "number"}}
                  },
                  "bodies": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "additionalProperties": false,
                      "required": ["name", "keyframes", "maxError", "static"],
                      "properties": {
                        "name": {"type": "string"}, "keyframes": {"type": "integer", "minimum": 0},
                        "maxError": {"type": "number", "minimum": 0}, "static": {"type": "boolean"}
                      }
                    }
                  },
                  "planes": {
                    "type": "array", "items": {"type": "string"},
                    "description": "The planes drawn as lines (drawPlanes), by name"
                  },
                  "bytes": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["json", "css", "lottie", "swift", "swiftui"],
                    "properties": {
                      "json": {"type": "integer"}, "css": {"type": "integer"}, "lottie": {"type": "integer"},
                      "swift": {"type": "integer"}, "swiftui": {"type": "integer"}
                    }
                  },
                  "exports": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["json", "css", "lottie", "swift", "swiftui"],
                    "properties": {
                      "json": {"type": "string"}, "css": {"type": "string"}, "lottie": {"type": "string"},
                      "swift": {"type": "string"}, "swiftui": {"type": "string"}
                    }
                  }
                }
              },
              "Catalog": {
                "type": "object",
                "required": ["easings", "parameterizedEasings", "springDialects", "formats", "scenes", "limits"],
                "properties": {
                  "easings": {"type": "array", "items": {"type": "string"}},
                  "parameterizedEasings": {"type": "array", "items": {"type": "string"}},
                  "springDialects": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": ["name", "parameters", "takesMass"],
                      "properties": {
                        "name": {"type": "string"},
                        "parameters": {"type": "array", "items": {"type": "string"}},
                        "takesMass": {"type": "boolean"}
                      }
                    }
                  },
                  "formats": {"type": "array", "items": {"type": "string"}},
                  "scenes": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": ["file", "label", "duration", "scene"],
                      "properties": {
                        "file": {"type": "string"}, "label": {"type": "string"},
                        "duration": {"type": "number"}, "scene": {"type": "string"}
                      }
                    }
                  },
                  "limits": {"type": "object", "additionalProperties": {"type": "number"}}
                }
              },
              "Error": {
                "type": "object",
                "additionalProperties": false,
                "required": ["error", "field"],
                "properties": {
                  "error": {"type": "string"},
                  "field": {"type": "string", "nullable": true}
                }
              }
            }
          }
        }
        """#
}
