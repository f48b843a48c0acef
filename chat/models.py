"""Chat app models.

The corpus (Customer, Order, Contract, Document) is company data the assistant answers from:
the system of record. It holds no user content, so it has no ``user_id`` and no RLS.
"""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from pgvector.django import VectorField

EMBEDDING_DIMENSIONS = 384


# --- Corpus: the business data (owner: helper "corpus") ---------------------------------


class Region(models.TextChoices):
    WEST = "west", "West"
    EAST = "east", "East"
    NORTH = "north", "North"
    SOUTH = "south", "South"
    CENTRAL = "central", "Central"


class OrderStatus(models.TextChoices):
    OPEN = "open", "Open"
    SHIPPED = "shipped", "Shipped"
    OVERDUE = "overdue", "Overdue"
    CANCELLED = "cancelled", "Cancelled"
    PAID = "paid", "Paid"


class Customer(models.Model):
    name = models.CharField(max_length=200)
    city = models.CharField(max_length=100)
    region = models.CharField(max_length=16, choices=Region.choices)
    segment = models.CharField(max_length=64)
    account_code = models.CharField(max_length=32, unique=True)

    class Meta:
        ordering = ["name"]
        indexes = [models.Index(fields=["region"], name="customer_region")]

    def __str__(self) -> str:
        return f"{self.name} ({self.city}, {self.account_code})"


class Order(models.Model):
    number = models.CharField(max_length=32, unique=True)
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE, related_name="orders")
    ordered_on = models.DateField()
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    currency = models.CharField(max_length=3, default="USD")
    status = models.CharField(max_length=16, choices=OrderStatus.choices)

    class Meta:
        ordering = ["-ordered_on", "number"]
        indexes = [
            models.Index(fields=["customer", "ordered_on"], name="order_customer_date"),
            models.Index(fields=["ordered_on"], name="order_date"),
            models.Index(fields=["status", "ordered_on"], name="order_status_date"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.amount} {self.currency} ({self.status})"


class Contract(models.Model):
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE, related_name="contracts")
    payment_terms = models.CharField(max_length=32)  # e.g. "net 45"
    payment_days = models.PositiveIntegerField()
    renewal_date = models.DateField()
    credit_limit = models.DecimalField(max_digits=12, decimal_places=2)
    signed_on = models.DateField()

    class Meta:
        ordering = ["-signed_on"]
        indexes = [models.Index(fields=["customer", "signed_on"], name="contract_customer_signed")]

    def __str__(self) -> str:
        return f"{self.customer.name}: {self.payment_terms}"


class Document(models.Model):
    title = models.CharField(max_length=300)
    text = models.TextField()
    customer = models.ForeignKey(Customer, null=True, blank=True, on_delete=models.SET_NULL, related_name="documents")
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    search = models.GeneratedField(
        expression=SearchVector("title", "text", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["title"]
        indexes = [GinIndex(fields=["search"], name="document_search_gin")]

    def __str__(self) -> str:
        return self.title
