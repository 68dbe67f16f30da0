-- wrk's request for `make benchmark-studio`: a spring bake at tolerance 1e-3 (SwiftUI's response
-- 0.5 s, bounce 0.3), every export in the answer, as the page asks for it.
wrk.method = "POST"
wrk.body = '{"source": "spring", "response": 0.5, "bounce": 0.3, "tolerance": 0.001}'
wrk.headers["Content-Type"] = "application/json"

-- Any answer but 200 counts as an error in the summary wrk prints.
function response(status, headers, body)
    if status ~= 200 then
        wrk.thread:stop()
        io.stderr:write("benchmark-studio: status " .. status .. ": " .. body .. "\n")
    end
end
