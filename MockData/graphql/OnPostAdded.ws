{"send": {"json": {"data": {"postAdded": {"__typename": "Post", "id": "3", "title": "Live from mockd"}}}}, "afterMs": 500}
{"send": {"json": {"data": {"postAdded": {"__typename": "Post", "id": "4", "title": "And another"}}}}, "afterMs": 1000}
