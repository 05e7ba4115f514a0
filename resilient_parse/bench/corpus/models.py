"""Targets for the bundled corpus: the kinds of models people ask LLMs to fill in.

Agent tool calls and plans, extraction (products, invoices, orders, people, events, list items), classification
with enums and Literals, a discriminated union of agent actions, and tools called in text (a union of argument
models, each recording its tool under `kind`). A corpus line names one of these by its bare
name (`"ToolCall"`), as `"list[Item]"`, or by an import path (`"resilient_parse.bench.corpus.models:ToolCall"`).

Expected objects in the corpus are these models' `model_dump(mode="json", by_alias=False)` form, so every field
(defaults included) appears under its Python name.
"""

from __future__ import annotations

import datetime as dt
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

__all__ = [
    "Address",
    "AgentAction",
    "AgentStep",
    "AgentTools",
    "ClickAction",
    "Customer",
    "DeleteFile",
    "Event",
    "FinishAction",
    "GetWeather",
    "IntentResult",
    "Invoice",
    "Item",
    "LineItem",
    "MovieReview",
    "Order",
    "Person",
    "PlanStep",
    "Product",
    "QuizAnswer",
    "ReadFile",
    "SearchAction",
    "SendEmail",
    "Sentiment",
    "SentimentResult",
    "SupportTicket",
    "TaskPlan",
    "TicketCategory",
    "ToolCall",
    "TypeAction",
    "WeatherQuery",
]


class ToolCall(BaseModel):
    """A function call an agent asks the host to run."""

    action: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class PlanStep(BaseModel):
    """One step of a plan; `dependencies` are ids of earlier steps."""

    id: int
    description: str
    tool: str | None = None
    dependencies: list[int] = Field(default_factory=list)


class TaskPlan(BaseModel):
    """A planner's answer: the goal restated and the ordered steps."""

    goal: str
    steps: list[PlanStep]


class Product(BaseModel):
    """A product extracted from a listing page."""

    name: str
    price: float
    currency: Literal["USD", "EUR", "GBP", "JPY"] = "USD"
    in_stock: bool
    tags: list[str] = Field(default_factory=list)


class LineItem(BaseModel):
    """One line of an invoice or order."""

    description: str
    quantity: int
    unit_price: float


class Invoice(BaseModel):
    """Fields pulled out of an invoice PDF's text."""

    invoice_number: str
    vendor: str
    issue_date: dt.date
    due_date: dt.date | None = None
    currency: Literal["USD", "EUR", "GBP", "JPY"]
    total: float
    line_items: list[LineItem] = Field(default_factory=list)


class Sentiment(str, Enum):
    POSITIVE = "positive"
    NEGATIVE = "negative"
    NEUTRAL = "neutral"
    MIXED = "mixed"


class SentimentResult(BaseModel):
    """Sentiment of a customer message; `confidence` is a probability."""

    sentiment: Sentiment
    confidence: float = Field(ge=0.0, le=1.0)
    aspects: list[str] = Field(default_factory=list)


class TicketCategory(str, Enum):
    """Member names differ from values on purpose: models often answer with the name."""

    BILLING = "billing_issue"
    TECHNICAL = "technical_problem"
    ACCOUNT = "account_access"
    FEATURE_REQUEST = "feature_request"
    OTHER = "other"


class SupportTicket(BaseModel):
    """Triage of a support e-mail. Declares a plain alias and alias choices, as real codebases do."""

    ticket_id: str = Field(validation_alias=AliasChoices("ticket_id", "ticketId", "ticket_number"))
    category: TicketCategory
    priority: Literal["low", "medium", "high", "urgent"]
    summary: str
    customer_email: str | None = Field(default=None, alias="customerEmail")


class IntentResult(BaseModel):
    """Intent classification for a travel assistant."""

    intent: Literal["book_flight", "cancel_booking", "check_status", "change_seat", "other"]
    confidence: float = Field(ge=0.0, le=1.0)
    entities: dict[str, str] = Field(default_factory=dict)


class Person(BaseModel):
    """A contact; the API it feeds speaks camelCase, so the model declares camel aliases."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    first_name: str
    last_name: str
    email_address: str | None = None
    date_of_birth: dt.date | None = None
    phone_numbers: list[str] = Field(default_factory=list)


class Event(BaseModel):
    """A calendar event extracted from an e-mail."""

    title: str
    date: dt.date
    start_time: dt.time | None = None
    duration_minutes: int = Field(gt=0)
    location: str | None = None
    attendees: list[str] = Field(default_factory=list)


class WeatherQuery(BaseModel):
    """Arguments for a weather tool."""

    location: str
    units: Literal["metric", "imperial"] = "metric"
    days: int = Field(default=1, ge=1, le=14)


class Item(BaseModel):
    """One entry of a shopping list or recipe; targets use `list[Item]`."""

    name: str
    quantity: float
    unit: str | None = None


QuizAnswer = Literal["A", "B", "C", "D"]
"""The letter of a multiple-choice answer; a Literal target on its own, not a model (`"target": "QuizAnswer"`)."""


class Address(BaseModel):
    street: str
    city: str
    postal_code: str
    country: str


class Customer(BaseModel):
    name: str
    email: str
    address: Address


class Order(BaseModel):
    """An order confirmation e-mail, nested two levels deep."""

    order_id: str
    status: Literal["pending", "shipped", "delivered", "cancelled"]
    customer: Customer
    items: list[LineItem]
    total: float


class MovieReview(BaseModel):
    """Structured summary of a review; free text fields carry quotes, apostrophes and non-ASCII."""

    title: str
    year: int = Field(ge=1880, le=2100)
    rating: float = Field(ge=0.0, le=10.0)
    recommended: bool
    summary: str


class SearchAction(BaseModel):
    type: Literal["search"]
    query: str
    max_results: int = 5


class ClickAction(BaseModel):
    type: Literal["click"]
    element_id: str


class TypeAction(BaseModel):
    type: Literal["type"]
    element_id: str
    text: str


class FinishAction(BaseModel):
    type: Literal["finish"]
    answer: str


AgentAction = Annotated[SearchAction | ClickAction | TypeAction | FinishAction, Field(discriminator="type")]


class AgentStep(BaseModel):
    """A ReAct-style step: a thought and one action from a discriminated union."""

    thought: str
    action: AgentAction


# -- tools an agent offers, called in text (the tool_text category) ---------------------------------------------------
# Each records the tool it is under `kind` (a default, never written by the model): the canonical form compared is
# then the tool and its arguments, so a delete read as a read is a wrong answer, not a match by shape.


class ReadFile(BaseModel):
    """Read a file."""

    kind: Literal["read_file"] = "read_file"
    path: str


class DeleteFile(BaseModel):
    """Delete a file: the same arguments as ReadFile, so only the call's name tells them apart."""

    kind: Literal["delete_file"] = "delete_file"
    path: str


class GetWeather(BaseModel):
    """Current weather for a city."""

    kind: Literal["get_weather"] = "get_weather"
    city: str
    unit: Literal["c", "f"] = "c"


class SendEmail(BaseModel):
    """Send an email."""

    kind: Literal["send_email"] = "send_email"
    to: str
    subject: str
    body: str = ""


AgentTools = ReadFile | DeleteFile | GetWeather | SendEmail
"""The tools of the tool_text category: a call picks one by its name."""
