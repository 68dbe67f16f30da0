-- wrk's requests for `make benchmark-studio`, every one a different spring (response 0.3–0.7 s,
-- bounce 0–0.5, four decimals: 16 million springs), so that none is answered from the cache.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

request = function()
    local body = string.format('{"source": "spring", "response": %.4f, "bounce": %.4f, "tolerance": 0.001}',
        0.3 + math.random() * 0.4, math.random() * 0.5)
    return wrk.format(nil, nil, nil, body)
end

function response(status, headers, body)
    if status ~= 200 then
        io.stderr:write("benchmark-studio: status " .. status .. ": " .. body .. "\n")
    end
end
