#!/usr/bin/env python3
"""Writes a Postman collection (v2.1) of 1,000 requests in 50 folders, each with a 200 and a 404
saved example (`{{baseUrl}}/api/resN/:id`, Postman's transfer headers, ~700-byte JSON bodies):
about 4 MB, for timing how long mockd takes to load one. Deterministic.
    python3 bench/gen-postman.py > big.postman_collection.json
    mockd check --root MockData --no-routes --no-strict --openapi big.postman_collection.json
"""
import json
import sys


def example(name, code, path, i):
    url = {"raw": "{{baseUrl}}/" + "/".join(path), "host": ["{{baseUrl}}"], "path": path}
    headers = [{"key": "Content-Type", "value": "application/json"}, {"key": "Content-Length", "value": "100"},
               {"key": "Date", "value": "Tue, 24 Nov 2026 10:00:00 GMT"}, {"key": "X-Request-Id", "value": f"r{i}"}]
    body = {"id": i, "name": f"item {i}", "tags": ["a", "b", "c"], "description": "x" * 600}
    return {"name": name, "originalRequest": {"method": "GET", "header": [], "url": url}, "status": "OK", "code": code,
            "_postman_previewlanguage": "json", "header": headers, "cookie": [], "body": json.dumps(body)}


folders = []
for f in range(50):
    items = []
    for r in range(20):
        i = f * 20 + r
        path = ["api", f"res{i}", ":id"]
        url = {"raw": "{{baseUrl}}/" + "/".join(path), "host": ["{{baseUrl}}"], "path": path}
        items.append({"name": f"Get res{i}", "request": {"method": "GET", "header": [], "url": url},
                      "response": [example("ok", 200, path, i), example("missing", 404, path, i)]})
    folders.append({"name": f"folder {f}", "item": items})
collection = {"info": {"_postman_id": "bench", "name": "Big",
                       "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": folders}
json.dump(collection, sys.stdout, indent=2)
