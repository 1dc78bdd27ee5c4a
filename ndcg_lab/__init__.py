"""The ``ndcg-lab`` command: ``ndcg-lab app`` starts the app, ``ndcg-lab evaluate`` scores runs."""
