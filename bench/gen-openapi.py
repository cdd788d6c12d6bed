#!/usr/bin/env python3
"""Writes a Stripe-sized OpenAPI 3.0 document (no internet here to fetch stripe/openapi):
about 4 MB of JSON, 400+ operations, schemas that reference each other in cycles
(customer -> subscription -> customer, expandable fields as anyOf [id, object]), nullable
fields, enums, long descriptions. Deterministic: the same bytes every run.
    python3 bench/gen-openapi.py > stripe-like.json
"""
import json
import random
import sys

rng = random.Random(20261123)
WORDS = ("the object amount currency customer invoice payment charge refund subscription price product "
         "account balance transfer payout session event file dispute coupon discount tax quote order").split()


def text(n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


resources = [f"{a}_{b}" for a in WORDS[:15] for b in ("item", "record", "link", "entry", "group", "line", "note", "plan")][:120]
schemas = {}
for index, name in enumerate(resources):
    properties = {
        "id": {"type": "string", "description": text(12), "maxLength": 5000},
        "object": {"type": "string", "enum": [name], "description": text(10)},
        "created": {"type": "integer", "format": "unix-time", "description": text(10)},
        "livemode": {"type": "boolean", "description": text(14)},
        "metadata": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 500}, "nullable": True, "description": text(20)},
        "status": {"type": "string", "enum": ["active", "canceled", "incomplete", "past_due", "trialing"], "description": text(16)},
        "amount": {"type": "integer", "minimum": 0, "description": text(12)},
        "email": {"type": "string", "format": "email", "nullable": True, "description": text(8)},
        "updated_at": {"type": "string", "format": "date-time", "description": text(8)},
    }
    # Expandable references, Stripe's shape: an id or the object; they close cycles.
    for step in (1, 7, 31):
        other = resources[(index + step) % len(resources)]
        properties[f"{other}_ref"] = {
            "anyOf": [{"type": "string", "maxLength": 5000}, {"$ref": f"#/components/schemas/{other}"}],
            "nullable": True, "description": text(18), "x-expandableFields": [other]}
    properties["children"] = {"type": "array", "items": {"$ref": f"#/components/schemas/{name}"}, "description": text(10)}
    for extra in range(18):
        properties[f"field_{extra}"] = {"type": rng.choice(["string", "integer", "boolean", "number"]), "description": text(30), "nullable": rng.random() < 0.3}
    schemas[name] = {"type": "object", "title": name, "description": text(40), "required": ["id", "object", "created", "livemode"],
                     "properties": properties, "x-resourceId": name}
    schemas[f"{name}_list"] = {"type": "object", "required": ["data", "has_more", "object", "url"], "properties": {
        "data": {"type": "array", "items": {"$ref": f"#/components/schemas/{name}"}},
        "has_more": {"type": "boolean"}, "object": {"type": "string", "enum": ["list"]}, "url": {"type": "string", "maxLength": 5000}}}
schemas["error"] = {"type": "object", "required": ["error"], "properties": {"error": {"type": "object", "properties": {
    "type": {"type": "string", "enum": ["api_error", "card_error", "invalid_request_error"]}, "message": {"type": "string"}}}}}


def respond(ref):
    return {"200": {"description": "Successful response.", "content": {"application/json": {"schema": {"$ref": ref}}}},
            "default": {"description": "Error response.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/error"}}}}}


def form(name):
    properties = {f"field_{n}": {"type": "string", "maxLength": 5000, "description": text(20)} for n in range(12)}
    properties["metadata"] = {"type": "object", "additionalProperties": {"type": "string"}}
    return {"content": {"application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": properties}},
                        "application/json": {"schema": {"type": "object", "properties": properties}}}, "required": False}


listing = [{"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}, "description": text(20)},
           {"name": "starting_after", "in": "query", "schema": {"type": "string", "maxLength": 5000}, "description": text(20)},
           {"name": "expand", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}, "style": "deepObject", "explode": True}]
paths = {}
for name in resources:
    base = f"/v1/{name}s"
    ident = [{"name": "id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 5000}}]
    paths[base] = {
        "get": {"operationId": f"List{name}", "description": text(60), "parameters": listing, "responses": respond(f"#/components/schemas/{name}_list")},
        "post": {"operationId": f"Post{name}", "description": text(60), "requestBody": form(name), "responses": respond(f"#/components/schemas/{name}")},
    }
    paths[base + "/{id}"] = {
        "get": {"operationId": f"Get{name}", "description": text(60), "parameters": ident, "responses": respond(f"#/components/schemas/{name}")},
        "post": {"operationId": f"Update{name}", "description": text(60), "parameters": ident, "requestBody": form(name),
                 "responses": respond(f"#/components/schemas/{name}")},
        "delete": {"operationId": f"Delete{name}", "description": text(40), "parameters": ident, "responses": respond(f"#/components/schemas/{name}")},
    }

document = {"openapi": "3.0.0", "info": {"title": "Stripe-like", "version": "2026-11-23"},
            "servers": [{"url": "https://api.example.com/"}],
            "security": [{"bearerAuth": []}, {"basicAuth": []}],
            "paths": paths,
            "components": {"schemas": schemas, "securitySchemes": {
                "bearerAuth": {"type": "http", "scheme": "bearer"}, "basicAuth": {"type": "http", "scheme": "basic"}}}}
json.dump(document, sys.stdout, indent=2)
sys.stdout.write("\n")
