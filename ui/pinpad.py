"""Training: the customer-facing PIN pad, attached to the sandbox's virtual terminal.

It shows each prompt the terminal puts to the customer and lets the trainer answer it as the
customer would: tap a test card (the list says what each one triggers), pick a tip, sign with the
mouse, accept or decline terms, type an input, or press Cancel. A hint list shows the vendor's
trigger amounts so a trainer can rehearse a decline, a partial approval or a timeout.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QPoint, QSize, Qt, QTimer
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QFontMetrics,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QBoxLayout,
    QCheckBox,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from cashier.errors import ValidationError
from cashier.money import parse_amount, round_money
from ui import a11y
from ui.front import FrontWhileNeeded
from ui.i18n import format_money, tr
from ui.widgets.qrcode import ScanCode

if TYPE_CHECKING:
    from ui.till import Till

#: Tips the pad offers when the request names none (percent of the amount).
DEFAULT_TIP_PERCENTS = (15, 18, 20)
#: How long the pad shows the outcome ("Approved — thank you") before "Welcome" (ms).
RESULT_MS = 3000
#: The gift card the sandbox knows (its default for gift card prompts).
TEST_GIFT_CARD = "2664654648774"
#: How many test cards the list shows at once (the rest scroll into view), at any text size:
#: the narrow pad at 150 % text showed one (issue #39)
CARDS_SHOWN = 3
#: The most lines of the window's text the pad's text takes (a longer one scrolls): terms or a
#: basket longer than that pushed the page's keys off a 768 px screen at 150 % text (issue #39)
TEXT_LINES = 6


class SaidLabel(QLabel):
    """A line of the pad's screen that takes no room while it says nothing: the empty amount and
    text took about 90 px of the QR code's page, which needed 770 px at 150 % text, more than a
    768 px screen holds (issue #39)."""

    def setText(self, text: str) -> None:
        super().setText(text)
        if text or self.parentWidget() is not None:  # never shown as a window of its own
            self.setHidden(not text)

    def clear(self) -> None:
        self.setText("")


class WrappedLabel(QLabel):
    """A label on as many lines as its width needs, and as high as those lines: a window does not
    ask its layout's height for its width, so a word-wrapped label at its one-line height let the
    narrow pad's Tap and Insert buttons overlap each other and the hint (issue #39)."""

    def __init__(self, text: str = "") -> None:
        super().__init__(text)
        self.setWordWrap(True)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        if not self.text() or self.width() <= 0:
            return hint
        return QSize(hint.width(), max(hint.height(), self.heightForWidth(self.width())))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # a new width: a new number of lines


class SaidWrappedLabel(WrappedLabel, SaidLabel):
    """Wrapped, and no room while it says nothing (``SaidLabel``)."""


class PadText(QScrollArea):
    """The pad's text under its amount: the whole of a short one, a long one (terms of up to 4096
    characters, a basket of ten lines) to scroll through, in at most ``TEXT_LINES`` lines of the
    window's text, so the page's keys stay on a 768 px screen at 150 % text (issue #39). Shown
    only while its label says something (``SaidLabel``)."""

    def __init__(self, label: QLabel) -> None:
        super().__init__()
        self.label = label
        self.setWidget(label)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        # scrolled by touch or the wheel, as the customer's screen is: the keyboard stays the
        # till's (a reader reads the label inside, its own words)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        label.installEventFilter(self)
        self.setHidden(label.isHidden())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.label:
            kind = event.type()
            if kind in (QEvent.Type.ShowToParent, QEvent.Type.HideToParent):
                self.setHidden(kind == QEvent.Type.HideToParent)
            elif kind in (QEvent.Type.FontChange, QEvent.Type.LayoutRequest):
                self.updateGeometry()
        return super().eventFilter(watched, event)

    def sizeHint(self) -> QSize:
        return self.minimumSizeHint()

    def minimumSizeHint(self) -> QSize:
        width = self.viewport().width() if self.width() > 0 else self.label.sizeHint().width()
        needed = self.label.heightForWidth(max(width, 40)) if self.label.text() else 0
        most = TEXT_LINES * QFontMetrics(self.font()).lineSpacing()
        return QSize(super().minimumSizeHint().width(), min(max(needed, 0), most))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # wrapped anew: another height


class CardList(QListWidget):
    """The test cards: ``CARDS_SHOWN`` of them in sight at least (one while the pad asks for
    something else than a card: its QR code or tip page needs the height), the others a scroll
    away."""

    def __init__(self) -> None:
        super().__init__()
        self.rows_shown = CARDS_SHOWN

    def show_rows(self, rows: int) -> None:
        if rows != self.rows_shown:
            self.rows_shown = rows
            self.updateGeometry()

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(hint.width(), max(hint.height(), self.rows_height(self.rows_shown)))

    def rows_height(self, rows: int) -> int:
        """The height of the first ``rows`` rows as they wrap at the list's width now (the item
        delegate measures a row on one line whatever the width)."""
        metrics = self.fontMetrics()
        width = max(self.viewport().width() - self.verticalScrollBar().sizeHint().width(), 40)
        tall = 2 * self.frameWidth()
        for i in range(min(self.count(), rows)):
            item = self.item(i)
            if item is None:
                continue
            one_line = max(self.sizeHintForRow(i), metrics.height())  # the row's own padding
            lines = metrics.boundingRect(0, 0, width, 10_000, Qt.TextFlag.TextWordWrap,
                                         item.text()).height()
            tall += one_line - metrics.height() + max(lines, metrics.height())
        return tall

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # the rows wrap anew: they may need another height


def pad_words(text: str) -> str:
    """The pad's own words in the window's language (the virtual terminal says them in English;
    a merchant's own text, such as a form's name, is shown as it was sent)."""
    known = {"Present card": tr("Present card"), "Would you like to add a tip?":
             tr("Would you like to add a tip?"), "Please sign": tr("Please sign")}
    return known.get(text, text)


def describe_prompt(prompt: Any) -> str:
    """One line for the cashier: what the customer is asked right now (the pad's own heading
    when it has one, else the kind of question), with the amount."""
    kinds = {"card": tr("Present card"), "tip": tr("Choose a tip"), "signature": tr("Sign"),
             "confirmation": tr("Confirm"), "terms": tr("Accept the terms"), "input": tr("Type a value"),
             "form": tr("Answer a form")}
    header = prompt.texts.get("header") if prompt.texts else None
    text = pad_words(str(header)) if header else kinds.get(prompt.kind, prompt.kind)
    if prompt.amount is not None:
        text += f" ({format_money(prompt.amount)})"
    return text


class SignaturePad(QWidget):
    """Sign with the mouse or a finger; the strokes only prove someone signed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumSize(240, 120)  # the narrow pad is 358 px wide at 150 % text (issue #39)
        self.strokes: list[list[QPoint]] = []
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet("background: #ffffff; border-radius: 8px;")

    def clear(self) -> None:
        self.strokes.clear()
        self.update()

    @property
    def signed(self) -> bool:
        return any(len(s) > 1 for s in self.strokes)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.strokes.append([event.position().toPoint()])
        self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self.strokes:
            self.strokes[-1].append(event.position().toPoint())
            self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#ffffff"))
        painter.setPen(QPen(QColor("#0b2540"), 3))
        for stroke in self.strokes:
            for a, b in itertools.pairwise(stroke):
                painter.drawLine(a, b)
        painter.end()


def _trigger_words() -> dict[str, str]:
    """What the sandbox's test cards and amounts do (``cashier.sandbox.triggers``, for people),
    in the window's language; one the window has no words for is listed as the sandbox says it."""
    return {
        "approved (amount triggers apply)": tr("approved (amount triggers apply)"),
        "Diners, approved (amount triggers apply)": tr("Diners, approved (amount triggers apply)"),
        "tapped (contactless): S, online PIN required; inserted: approved":
            tr("tapped (contactless): S, online PIN required; inserted: approved"),
        "timeout: HTTP 504, error 9951": tr("no answer in time (the host's error 9951)"),
        "error 9401": tr("error 9401"),
        "demo host error": tr("demo host error"),
        "timeout response: HTTP 504, error 9951": tr("the host answers that it ran out of time "
                                                     "(error 9951)"),
        "hosted card form error": tr("hosted card form error"),
        "original credit transfer (OCT) Visa": tr("original credit transfer (OCT) Visa"),
        "original credit transfer (OCT) Mastercard": tr("original credit transfer (OCT) Mastercard"),
        "approved (A)": tr("approved (A)"),
        "voice referral (R)": tr("voice referral (R)"),
        "declined (D)": tr("declined (D)"),
        "refund declined (D)": tr("refund declined (D)"),
        "declined when the gateway forwards it (D)": tr("declined when the gateway forwards it (D)"),
        "partial approval (P) of half the amount sought, with ALLOWPARTIALAUTH; declined (D) "
        "without it; also a capture, incremental authorization or raised invoice seeking 219.00 "
        "more": tr("partial approval (P) of half the amount sought, with ALLOWPARTIALAUTH; "
                   "declined (D) without it; also a capture, incremental authorization or raised "
                   "invoice seeking 219.00 more"),
        "approved after XX seconds": tr("approved after XX seconds"),
        "error after XX seconds": tr("error after XX seconds"),
        "referral after XX seconds": tr("referral after XX seconds"),
        "declined after XX seconds": tr("declined after XX seconds"),
        "approved on a prepaid card with a balance of 43.34":
            tr("approved on a prepaid card with a balance of 43.34"),
    }


class PinPadWindow(QWidget):
    """A second window: the customer's side of the counter."""

    def __init__(self, till: Till, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("PinPad")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.till = till
        self.prompt: Any = None
        self.detach: Any = None
        #: how long the automatic customer "thinks" before answering (the bench uses 0)
        self.auto_delay_ms = 50
        self.result_ms = RESULT_MS
        #: a card was presented: the next payment outcome is this customer's, said on the pad
        self._card_presented = False
        # the pad's own timer: it goes with the window (a closed pad is never redrawn)
        self._result_timer = QTimer(self)
        self._result_timer.setSingleShot(True)
        self._result_timer.timeout.connect(self._result_read)
        self._resting: dict[str, Any] | None = None  # what the pad rests on once the result is read
        #: over the till's window (a small screen): in front only while the customer has news
        self.front = FrontWhileNeeded(self, RESULT_MS)
        #: the till's window, which the keyboard goes back to after the trainer clicked the pad
        #: (set by the start, beside the till or over it)
        self.keys_home: QWidget | None = None
        self.resize(760, 640)
        outer = QHBoxLayout(self)
        self.outer = outer
        outer.setContentsMargins(16, 16, 16, 16)
        outer.setSpacing(16)
        pad = QVBoxLayout()
        screen = QFrame()
        screen.setObjectName("PadScreen")
        screen_col = QVBoxLayout(screen)
        self.header = WrappedLabel()
        self.header.setObjectName("PadHeader")
        self.amount = SaidLabel()
        self.amount.setObjectName("PadAmount")
        self.text = SaidWrappedLabel()
        screen_col.addWidget(self.header)
        screen_col.addWidget(self.amount)
        self.text_view = PadText(self.text)
        screen_col.addWidget(self.text_view)
        self.stack = QStackedWidget()
        screen_col.addWidget(self.stack, 1)
        pad.addWidget(screen, 1)
        self.cancel_button = QPushButton()
        self.cancel_button.setObjectName("Danger")
        self.cancel_button.clicked.connect(self.customer_cancels)
        pad.addWidget(self.cancel_button)
        outer.addLayout(pad, 3)
        self._build_answers()
        side = QVBoxLayout()
        self.auto = QCheckBox()
        self.compact = False
        side.addWidget(self.auto)
        # a click on the automatic customer is the trainer's, not a key for the pad
        self.auto.clicked.connect(lambda _on: self._keys_back_to_the_till())
        # rehearse an outage: the host behind the gateway goes away (issue 40); the till goes
        # offline by itself at its next card payment and comes back once this is unticked
        self.host_down = QCheckBox()
        self.host_down.toggled.connect(self.till.set_host_down)
        side.addWidget(self.host_down)
        self.cards_box = QGroupBox()
        cards_col = QVBoxLayout(self.cards_box)
        self.cards = CardList()
        self.cards.setWordWrap(True)
        self.cards.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # a double-click selects the row, then taps it as the one rule says (a gift card request
        # gets a gift card)
        self.cards.itemActivated.connect(lambda _item: self.tap(self.default_card()))
        # choosing a test card for the next customer: the cashier's next key is the till's
        self.cards.itemClicked.connect(lambda _item: self._keys_back_to_the_till())
        cards_col.addWidget(self.cards)
        side.addWidget(self.cards_box, 3)
        self.triggers_box = QGroupBox()
        trig_col = QVBoxLayout(self.triggers_box)
        self.triggers = QListWidget()
        self.triggers.setWordWrap(True)
        self.triggers.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        trig_col.addWidget(self.triggers)
        side.addWidget(self.triggers_box, 2)
        outer.addLayout(side, 2)
        self._fill_lists()
        self.retranslate()
        self.show_prompt(None)

    # ---- answers per prompt kind ----------------------------------------------------------
    def _build_answers(self) -> None:
        self.idle_page = QLabel()
        self.idle_page.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack.addWidget(self.idle_page)
        card = QWidget()
        col = QVBoxLayout(card)
        self.tap_button = QPushButton()
        self.tap_button.clicked.connect(lambda: self.tap(self.default_card()))
        self.insert_button = QPushButton()
        self.insert_button.clicked.connect(lambda: self.tap(self.default_card(), "E"))
        self.card_hint = WrappedLabel()
        # one above the other; side by side on the narrow pad, whose height is short at 150 % text
        self.card_keys = QBoxLayout(QBoxLayout.Direction.TopToBottom)
        self.card_keys.addWidget(self.tap_button)
        self.card_keys.addWidget(self.insert_button)
        col.addLayout(self.card_keys)
        col.addWidget(self.card_hint)
        col.addStretch(1)
        self.card_page = card
        self.stack.addWidget(card)
        tip = QWidget()
        self.tip_col = QVBoxLayout(tip)
        self.tip_buttons = QVBoxLayout()
        self.tip_col.addLayout(self.tip_buttons)
        other = QHBoxLayout()
        self.tip_other = QLineEdit()
        self.tip_other.setPlaceholderText("0.00")
        self.tip_other_button = QPushButton()
        self.tip_other_button.clicked.connect(self._custom_tip)
        other.addWidget(self.tip_other)
        other.addWidget(self.tip_other_button)
        self.tip_col.addLayout(other)
        self.tip_error = SaidLabel()
        self.tip_col.addWidget(self.tip_error)
        self.tip_col.addStretch(1)
        self.tip_page = tip
        self.stack.addWidget(tip)
        sign = QWidget()
        scol = QVBoxLayout(sign)
        self.signature = SignaturePad()
        scol.addWidget(self.signature, 1)
        srow = QHBoxLayout()
        self.sign_clear = QPushButton()
        self.sign_clear.clicked.connect(self.signature.clear)
        self.sign_done = QPushButton()
        self.sign_done.clicked.connect(self._signed)
        srow.addWidget(self.sign_clear)
        srow.addWidget(self.sign_done)
        scol.addLayout(srow)
        self.sign_page = sign
        self.stack.addWidget(sign)
        yes_no = QWidget()
        yrow = QHBoxLayout(yes_no)
        self.accept_button = QPushButton()
        self.accept_button.clicked.connect(lambda: self._answer("accept"))
        self.decline_button = QPushButton()
        self.decline_button.clicked.connect(lambda: self._answer("decline"))
        yrow.addWidget(self.accept_button)
        yrow.addWidget(self.decline_button)
        self.yes_no_page = yes_no
        self.stack.addWidget(yes_no)
        entry = QWidget()
        erow = QHBoxLayout(entry)
        self.input = QLineEdit()
        self.input.returnPressed.connect(lambda: self._answer("enter"))
        self.input_ok = QPushButton("OK")
        self.input_ok.clicked.connect(lambda: self._answer("enter"))
        erow.addWidget(self.input)
        erow.addWidget(self.input_ok)
        self.input_page = entry
        self.stack.addWidget(entry)
        form = QWidget()
        self.form_col = QVBoxLayout(form)
        self.form_page = form
        self.stack.addWidget(form)
        self.stack.currentChanged.connect(self._only_the_shown_page_counts)
        self._only_the_shown_page_counts()

    def _only_the_shown_page_counts(self, *_: object) -> None:
        """The pad is as large as the page it shows, not its largest page (a stack asks for the
        largest by default): the narrow pad grows for the tip page and takes its place again."""
        shown = self.stack.currentWidget()
        cards = getattr(self, "cards", None)  # built after the pages
        if cards is not None:
            card_or_rest = shown in (self.idle_page, self.card_page)
            cards.show_rows(CARDS_SHOWN if card_or_rest else 1)
            # the narrow pad leaves them out while it asks for something else than a card: its
            # tip page needed 860 px at 150 % text, and a card is chosen when one is asked
            self.cards_box.setHidden(self.compact and not card_or_rest)
        for i in range(self.stack.count()):
            page = self.stack.widget(i)
            if page is None:
                continue
            policy = QSizePolicy.Policy.Preferred if page is shown else QSizePolicy.Policy.Ignored
            if page.sizePolicy().horizontalPolicy() == policy and page is not shown:
                continue  # hidden and already out of the count: nothing to lay out again
            page.setSizePolicy(policy, policy)
            page.adjustSize()
        self.stack.adjustSize()

    def _fill_lists(self) -> None:
        from cashier.redact import mask_pan
        from cashier.sandbox import AMOUNT_TRIGGERS, TEST_CARDS

        self.cards.clear()
        for card in TEST_CARDS:
            said = _trigger_words().get(card.triggers, card.triggers)
            item = QListWidgetItem(f"{card.brand} {mask_pan(card.number)[-8:]} — {said}")
            item.setData(Qt.ItemDataRole.UserRole, card.number)
            self.cards.addItem(item)
        from cashier.sandbox import TRAINING_GIFT_BALANCE, TRAINING_GIFT_CARD

        training = QListWidgetItem(f"GIFT {TRAINING_GIFT_CARD[-4:]} — " + tr("gift card, active, %s")
                                   % format_money(TRAINING_GIFT_BALANCE))
        training.setData(Qt.ItemDataRole.UserRole, TRAINING_GIFT_CARD)
        self.cards.addItem(training)
        gift = QListWidgetItem(f"GIFT {TEST_GIFT_CARD[-4:]} — " + tr("gift card, not active yet"))
        gift.setData(Qt.ItemDataRole.UserRole, TEST_GIFT_CARD)
        self.cards.addItem(gift)
        self.triggers.clear()
        for amount, effect in AMOUNT_TRIGGERS:
            self.triggers.addItem(f"{amount}: {_trigger_words().get(effect, effect)}")

    def default_card(self) -> str:
        """The card Tap, Insert and the automatic customer present (the sandbox's rule: a gift
        card request gets a gift card whatever test card is selected)."""
        from cashier.sandbox import training_customer_card

        item = self.cards.currentItem()
        selected = str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None
        gift_card_sale = self.till.ready and bool(self.till.ctx.pinpad.wants_gift_card)
        return training_customer_card(selected, purpose=str(getattr(self.prompt, "purpose", "") or ""),
                                      gift_card_sale=gift_card_sale)

    # ---- the terminal's side ---------------------------------------------------------------
    def attach(self) -> None:
        """Answer the virtual terminal's prompts from this window (instead of its script)."""
        if self.detach is None:
            self.detach = self.till.hub.attach(self.till.terminal_id, self._listener)
        self.till.bridge.terminal_event.connect(self._terminal_event)
        self.till.bridge.payment_changed.connect(self._payment_outcome)

    def _listener(self, prompt: Any) -> None:
        self._result_timer.stop()  # a new prompt ends the result on screen
        self._resting = None
        self.show_prompt(prompt)
        if prompt is not None:
            self.front.come_forward(linger=False)  # the customer is asked: the trainer must see it
        else:  # taken back (the cashier cancelled): unless an outcome comes to say first
            self.front.step_back_later()
        if self.auto.isChecked():
            QTimer.singleShot(self.auto_delay_ms, self.auto_answer)

    def auto_answer(self) -> None:
        """The default virtual customer: taps the default card, no tip, signs, accepts."""
        prompt = self.prompt
        if prompt is None or prompt.done:
            return
        if prompt.kind == "card":
            prompt.present_card(self.default_card(), "T")
            self._card_presented = True
            self.reset_card()
        elif prompt.kind == "tip":
            prompt.choose_tip("notip")
        elif prompt.kind == "signature":
            prompt.sign()
        elif prompt.kind in ("confirmation", "terms"):
            prompt.accept()
        elif prompt.kind == "input":
            prompt.enter("1234")
        else:
            buttons = (prompt.form or {}).get("buttons") or [{"id": "1"}]
            prompt.press(str(buttons[0].get("id", "1")))
        self.show_prompt(None)

    def _terminal_event(self, event: Any) -> None:
        if event.prompt is None and (self.prompt is None or self.prompt.done):
            if self._resting is not None:  # the customer reads the outcome first
                self._resting = dict(event.display)
                return
            self.show_prompt(None, event.display)
            self.front.step_back_later()  # unless an outcome comes to say first

    def _payment_outcome(self, entry: Any) -> None:
        """The outcome of the card this customer presented, on the pad for a few seconds (as a
        real pad says it) before it goes back to "Welcome"."""
        if not self._card_presented:
            return
        from cashier.entry_rules import reason  # loaded with the runtime

        why = reason(entry)
        if why is not None and why.partial and why.approved is not None and why.rest is not None:
            cur = str(entry.currency)  # the customer still owes the rest: never "thank you"
            words: str | None = tr("Approved for {got}: {rest} still due. Pay the rest another "
                                   "way.").format(got=format_money(why.approved, cur),
                                                  rest=format_money(why.rest, cur))
        else:
            words = {"approved": tr("Approved — thank you"), "captured": tr("Approved — thank you"),
                     "declined": tr("Declined"), "error": tr("Not approved")}.get(str(entry.state))
        if words is None:  # still on its way (intent, sent) or unknown: nothing to say yet
            return
        self._card_presented = False
        self.show_result(words)

    def show_result(self, words: str) -> None:
        self._resting = self._resting if self._resting is not None else {}
        self.header.setText(words)
        self.amount.setText("")
        self.text.setText("")
        self.idle_page.setText("")
        self.stack.setCurrentWidget(self.idle_page)
        self.front.back_to_placed_size()
        self.front.come_forward(linger=False)
        self._result_timer.start(self.result_ms)

    def _result_read(self) -> None:
        resting, self._resting = self._resting, None
        if self.prompt is None or self.prompt.done:
            self.show_prompt(None, resting)
            self.front.step_back()

    def show_prompt(self, prompt: Any, display: dict[str, Any] | None = None) -> None:
        self.prompt = prompt
        self.cancel_button.setEnabled(prompt is not None)
        if prompt is None:
            texts = (display or {}).get("texts") or {}
            form = (display or {}).get("form") or {}
            self.header.setText(pad_words(texts["header"]) if texts.get("header") else tr("Welcome"))
            self.amount.setText("")
            receipt = (display or {}).get("receipt")
            # the basket the till sent (the core keeps it to ten lines), as the customer checks it
            items = [str(item) for item in (display or {}).get("lineItems") or []]
            columns = receipt["lines"][:6] if receipt else items
            self._text_font(fixed=bool(columns))
            self.text.setText("\n".join(columns) if columns
                              else (texts.get("text") or (form.get("header") or {}).get("value", "")
                                    if isinstance(form.get("header"), dict) else texts.get("text", "")))
            self.idle_page.setText(tr("Waiting for the cashier"))
            self.stack.setCurrentWidget(self.idle_page)
            self.front.back_to_placed_size()
            return
        texts = prompt.texts or {}
        self.header.setText(pad_words(texts["header"]) if texts.get("header") else describe_prompt(prompt))
        self.amount.setText(format_money(prompt.amount) if prompt.amount is not None else "")
        self._text_font(fixed=False)  # the window's own font again (not the basket's fixed one)
        self.text.setText(pad_words(texts.get("text", "")))
        if prompt.kind == "card":
            self.stack.setCurrentWidget(self.card_page)
        elif prompt.kind == "tip":
            self._fill_tips(prompt)
            self.stack.setCurrentWidget(self.tip_page)
        elif prompt.kind == "signature":
            self.signature.clear()
            self.stack.setCurrentWidget(self.sign_page)
        elif prompt.kind in ("confirmation", "terms"):
            self.stack.setCurrentWidget(self.yes_no_page)
        elif prompt.kind == "input":
            self.input.clear()
            self.stack.setCurrentWidget(self.input_page)
            self.input.setFocus()
        else:
            self._fill_form(prompt)
            self.stack.setCurrentWidget(self.form_page)

    def _text_font(self, fixed: bool) -> None:
        """The basket's columns are laid out in characters: drawn in the system's fixed-width
        font at its own size (a 28-character line fits the pad's column). Any other text is in
        the window's font at its text size: an empty QFont alone gave the label the
        application's 9 pt for good ("Please sign", the terms at 150 % text: issue #39), so the
        style sheet is asked for it again."""
        if fixed:
            self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        elif self.text.font().family() != self.header.font().family() \
                or self.text.font().pixelSize() < 0:
            self.text.setFont(QFont())
            self.text.style().unpolish(self.text)
            self.text.style().polish(self.text)

    def _fill_tips(self, prompt: Any) -> None:
        _clear(self.tip_buttons)
        self.tip_error.clear()
        self.tip_other.clear()
        options = list(prompt.tip_options())
        presets = [(o, a) for o, a in options if o != "notip"]
        if not presets and prompt.tip is not None:
            # the request carried no presets: the pad offers the usual ones, as a real pad does
            basis = prompt.tip.basis
            presets = [(f"{p}%", round_money(basis * p / 100)) for p in DEFAULT_TIP_PERCENTS]
            for label, amount in presets:
                self._tip_button(f"{label}  {format_money(amount)}", amount)
        else:
            for option, amount in presets:
                self._tip_button(format_money(amount), option)
        if any(o == "notip" for o, _a in options) or not options:
            self._tip_button(tr("No tip"), "notip")

    def _tip_button(self, label: str, answer: Any) -> None:
        button = QPushButton(label)
        button.setProperty("tip_option", answer)
        button.clicked.connect(lambda _=False, a=answer: self._answer("tip", a))
        self.tip_buttons.addWidget(button)

    def _fill_form(self, prompt: Any) -> None:
        _clear(self.form_col)
        items = [i for i in (prompt.form or {}).get("items") or () if isinstance(i, dict)]
        code = next((str(i.get("value") or "") for i in items if i.get("key") == "QR"), "")
        if code:  # the QR payment's stored form: the code for the customer's phone
            view = ScanCode()
            view.setMinimumSize(240, 240)
            view.show_code(code)
            self.form_col.addWidget(view, 1)
        buttons = (prompt.form or {}).get("buttons") or [{"id": "1", "text": "OK"}]
        for spec in buttons:
            if not isinstance(spec, dict):
                continue
            button_id = str(spec.get("id"))
            button = QPushButton(str(spec.get("text") or button_id))
            button.clicked.connect(lambda _=False, b=button_id: self._answer("press", b))
            self.form_col.addWidget(button)

    # ---- the customer's actions ------------------------------------------------------------
    def tap(self, number: str, entry_mode: str = "T") -> None:
        if self.prompt is not None and self.prompt.kind == "card":
            self.prompt.present_card(number, entry_mode)
            self._card_presented = True
            self.reset_card()  # the next customer starts from the default card
            self.show_prompt(None)
            self._keys_back_to_the_till()

    def reset_card(self) -> None:
        self.cards.setCurrentRow(-1)
        self.cards.clearSelection()

    def _custom_tip(self) -> None:
        try:  # the core's one amount rule (1,50 or 1E1 are refused like anywhere else)
            value = parse_amount(self.tip_other.text(), field="tip", allow_zero=True)
        except ValidationError:
            self.tip_error.setText(tr("Tip: type an amount such as 2.50"))
            return
        self._answer("tip", value)

    def _signed(self) -> None:
        if not self.signature.signed:
            self.text.setText(tr("Please sign in the box first."))
            return
        self._answer("sign")

    def _answer(self, how: str, value: Any = None) -> None:
        prompt = self.prompt
        if prompt is None:
            return
        if how == "tip":
            prompt.choose_tip(value)
        elif how == "sign":
            prompt.sign()
        elif how == "accept":
            prompt.accept()
        elif how == "decline":
            prompt.decline()
        elif how == "enter":
            prompt.enter(self.input.text())
        elif how == "press":
            prompt.press(value)
        self.show_prompt(None)
        self._keys_back_to_the_till()

    def customer_cancels(self) -> None:
        if self.prompt is not None:
            self.prompt.cancel()
            self.show_prompt(None)
            self._keys_back_to_the_till()

    def _keys_back_to_the_till(self) -> None:
        """The trainer clicked the pad to answer for the customer: the keyboard goes back to
        the till's window, or the cashier's next key (Return for a new sale) went to the pad
        (seen under openbox: the result stayed, the pad stayed in front)."""
        till = self.front.covers or self.keys_home
        if till is not None and self.isActiveWindow():
            till.activateWindow()

    def set_compact(self, compact: bool) -> None:
        """Narrow, for a column beside the till's window: the test cards under the pad's screen,
        the trigger list left out (the cashier's guide lists it), smaller margins."""
        self.outer.setDirection(QBoxLayout.Direction.TopToBottom if compact
                                else QBoxLayout.Direction.LeftToRight)
        margin = 8 if compact else 16
        self.outer.setContentsMargins(margin, margin, margin, margin)
        self.outer.setSpacing(8 if compact else 16)
        self.triggers_box.setVisible(not compact)
        self.card_keys.setDirection(QBoxLayout.Direction.LeftToRight if compact
                                    else QBoxLayout.Direction.TopToBottom)
        # the list's tooltip says it (the lines it took left two test cards in sight in Spanish
        # at 150 % text, the pad's bottom off a 768 px screen)
        self.card_hint.setVisible(not compact)
        self.compact = compact
        self._only_the_shown_page_counts()
        self._label_auto()
        self._label_keys()
        self._title_cards()
        self.outer.activate()

    def _title_cards(self) -> None:
        # a group box title never wraps: the long one made the narrow pad 507 px wide in Spanish
        self.card_hint.setText(tr("Or double-click a test card below.") if self.compact
                               else tr("Or double-click a test card on the right."))
        explained = tr("Test cards: double-click to tap")
        self.cards_box.setTitle(tr("Test cards") if self.compact else explained)
        self.cards.setToolTip(explained)

    def _label_auto(self) -> None:
        explained = tr("Automatic customer (taps the selected card, no tip)")
        self.auto.setText(tr("Automatic customer") if self.compact else explained)
        self.auto.setToolTip(explained)

    def _label_keys(self) -> None:
        """The narrow pad's short words (the long ones made it 433 px wide at 150 % text, wider
        than the column it shares with the printer); the long ones are their tooltips."""
        for widget, short, explained in (
                (self.tap_button, tr("Tap"), tr("Tap card")),
                (self.insert_button, tr("Insert"), tr("Insert card")),
                (self.host_down, tr("Host down"), tr("Host down (rehearse an outage)"))):
            widget.setText(short if self.compact else explained)
            widget.setToolTip(explained)

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Customer PIN pad (training)"))
        self.cancel_button.setText(tr("Cancel (customer)"))
        self._label_auto()
        self._label_keys()
        self._title_cards()
        self.triggers_box.setTitle(tr("Trigger amounts"))
        self.tip_other_button.setText(tr("Other tip"))
        self.sign_clear.setText(tr("Clear"))
        self.sign_done.setText(tr("Done signing"))
        self.accept_button.setText(tr("Accept"))
        self.decline_button.setText(tr("Decline"))
        a11y.name(self.tip_other, tr("Other tip amount"))
        a11y.name(self.input, tr("The customer's answer"))
        a11y.name_view(self.cards, self.cards_box.title())
        a11y.name_view(self.triggers, self.triggers_box.title())
        self._fill_lists()
        self.show_prompt(self.prompt if self.prompt is not None and not self.prompt.done else None)

    def event(self, event: QEvent) -> bool:
        done = super().event(event)
        if event.type() != QEvent.Type.LayoutRequest or not hasattr(self, "front"):
            return done  # (events reach it while it is built)
        placed = self.front.placed
        if placed is not None \
                and self.height() > max(self.minimumHeight(), placed.height()):
            # a window grows to a larger least height by itself but keeps it once it falls: the
            # QR code's page left the pad 770 px high, off a 768 px screen, after the test
            # cards' rows gave way (issue #39); no higher than placed or than its page needs
            self.resize(self.width(), max(self.minimumHeight(), placed.height()))
        return done

    def showEvent(self, event: Any) -> None:
        if self.detach is None and self.till.ready and self.till.runtime is not None \
                and self.till.runtime.sandbox is not None:
            self.detach = self.till.hub.attach(self.till.terminal_id, self._listener)
        super().showEvent(event)

    def closeEvent(self, event: Any) -> None:
        # closing the pad window hands the terminal back to its script (the default customer)
        if self.detach is not None:
            self.detach()
            self.detach = None
        super().closeEvent(event)


def _clear(layout: Any) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget()
        if widget is not None:
            widget.deleteLater()
