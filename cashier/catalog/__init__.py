"""The store's catalog: products, categories, tax classes and modifiers, one version at a time.

``model`` holds the catalog a till sells from (immutable, indexed for the counter's search);
the store keeps every version in its PostgreSQL and a till keeps the newest in its SQLite.
"""

from cashier.catalog.model import (
    Catalog,
    CatalogSource,
    Category,
    Modifier,
    Product,
    TaxClass,
    check_sku,
)

__all__ = ["Catalog", "CatalogSource", "Category", "Modifier", "Product", "TaxClass", "check_sku"]
