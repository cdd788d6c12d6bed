#!/usr/bin/env python3
"""The benchmark fixture: a mock folder that every bench script serves.

  bench/fixtures.py        makes bench/.build/fixtures/MockData when it is missing or was made by
                           another version of this file, then prints that folder's path

The folder holds, in mockd's file layout (GET /bench/items/17 -> mock_bench_items_17_get.json):
  mock_bench_small_get.json     ~280 B: one person
  mock_bench_medium_get.json    ~4.3 KB: a page of people
  mock_bench_large_get.json     ~256 KiB: a product catalogue
  mock_bench_items_<1..10000>_get.json
                                480-550 B each, every one different; some names are not ASCII

Every body is valid JSON. The bytes depend on nothing but this file (no clock, no random
generator: they come from BLAKE2 hashes of a counter), so two machines measure the same bytes.
"""
import hashlib, json, os, shutil, sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, ".build", "fixtures")
ROOT = os.path.join(OUT, "MockData")
STAMP = os.path.join(OUT, "made-by")

ITEMS = 10000
ADJECTIVES = ("quiet brisk amber silver rapid gentle hollow bright narrow sturdy polished rustic "
              "crisp vivid humble lucid mellow nimble proud rugged").split()
NOUNS = ("kettle lantern compass anchor saddle ladder basket bucket chisel hammock mirror "
         "pillow quilt ribbon shovel teapot trowel wallet whistle zipper").split()
PEOPLE = ("Hedy Lamarr", "Katherine Johnson", "Claude Shannon", "Émilie du Châtelet",
          "Sofia Kovalevskaya", "Łukasiewicz Jan", "Hamming Richard", "Ørsted Hans",
          "Noether Emmy", "Ramanujan Srinivasa", "Ševčík Otakar", "Hypatia")
CITIES = ("Zürich", "Kraków", "Lisbon", "Reykjavík", "Osaka", "Montréal", "Tallinn", "Porto")


def numbers(*key):
    """32 bytes that depend only on the key: the fixture's only source of variety."""
    return hashlib.blake2b("|".join(map(str, key)).encode(), digest_size=32).digest()


def pick(options, *key):
    return options[numbers(*key)[0] % len(options)]


def phrase(count, *key):
    b = numbers("phrase", *key)
    return " ".join((ADJECTIVES if i % 2 == 0 else NOUNS)[b[i % 32] % 20] for i in range(count))


def encode(value):
    return (json.dumps(value, ensure_ascii=False, separators=(", ", ": ")) + "\n").encode()


def person(n):
    b = numbers("person", n)
    return {"id": n, "name": pick(PEOPLE, "name", n), "email": f"person{n}@example.test",
            "city": pick(CITIES, "city", n), "verified": b[1] % 3 != 0,
            "joined": f"2025-{1 + b[2] % 12:02d}-{1 + b[3] % 28:02d}"}


def product(n):
    b = numbers("product", n)
    return {"id": n, "code": f"P{n:05d}", "title": phrase(2, "title", n),
            "price_cents": 100 + int.from_bytes(b[:3], "big") % 90000,
            "in_stock": b[3] % 5 != 0, "maker": pick(PEOPLE, "maker", n),
            "colours": [pick(ADJECTIVES, "colour", n, k) for k in range(1 + b[4] % 3)]}


def item(n):
    """One item file: a product plus notes padded until its size is 480-549 bytes."""
    body = product(n)
    target = 480 + numbers("size", n)[0] % 70
    words = 4
    while True:
        body["notes"] = phrase(words, "notes", n)
        data = encode(body)
        if len(data) >= target:
            return data
        words += 1


def until_size(make, wrap, size):
    """wrap([make(1), make(2), ...]) with as many records as make it at least size bytes."""
    records, estimate = [], 0
    while True:
        records.append(make(len(records) + 1))
        estimate += len(encode(records[-1])) + 1
        if estimate >= size - 100:  # encode the whole only near the end: linear, not quadratic
            data = encode(wrap(records))
            if len(data) >= size:
                return data


def bodies():
    yield "small", encode({**person(1), "plan": "team", "seats": {"used": 7, "paid": 10},
                           "locale": "de-CH", "theme": "dark",
                           "office": {"street": "Bahnhofstrasse 1", "postcode": "8001"}})
    yield "medium", until_size(person, lambda r: {"page": 1, "of": 40, "people": r}, 4200)
    yield "large", until_size(product, lambda r: {"count": len(r), "products": r}, 256 * 1024)
    for n in range(1, ITEMS + 1):
        yield f"items/{n}", item(n)


def make():
    fresh = OUT + ".new"
    shutil.rmtree(fresh, ignore_errors=True)
    os.makedirs(os.path.join(fresh, "MockData"))
    for path, data in bodies():
        json.loads(data)
        name = "mock_bench_" + path.replace("/", "_") + "_get.json"
        with open(os.path.join(fresh, "MockData", name), "wb") as f:
            f.write(data)
    with open(os.path.join(fresh, "made-by"), "w") as f:
        f.write(version())
    shutil.rmtree(OUT, ignore_errors=True)
    os.rename(fresh, OUT)  # a half-made folder is never taken for a fixture


def version():
    with open(os.path.abspath(__file__), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest() + "\n"


def current():
    try:
        with open(STAMP) as f:
            return f.read() == version()
    except OSError:
        return False


if __name__ == "__main__":
    if not current():
        print("bench/fixtures.py: making the fixture (10,003 files) in " + ROOT, file=sys.stderr)
        make()
    print(ROOT)
