"""The score sheet as a player's thumb uses it: taps on the segmented choices, typed names and
points, and what the page shows back (preview, rows, totals), read in the page's own words.
"""

from decimal import Decimal

from playwright.sync_api import Locator, Page, expect

from scoresheet import scoring
from scoresheet.models import Camp, Chelem, Contract, Poignee


def signed(value: int) -> str:
    """A score as the sheet writes it: +318, −106 (a true minus sign), 0."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def points_text(points: Decimal) -> str:
    return str(points.quantize(Decimal(1))) if points == points.to_integral() else str(points)


class SheetPage:
    """One browser tab on the app: it taps on a phone, and clicks on a laptop."""

    def __init__(self, page: Page):
        self.page = page
        # A phone's descriptor turns touch on (has_touch); a laptop's does not.
        self.touch = page.evaluate("navigator.maxTouchPoints > 0")

    def tap(self, target: Locator) -> None:
        if self.touch:
            target.tap()
        else:
            target.click()

    def type_into(self, field: Locator, text: str) -> None:
        """Tap a text field and type, as the phone's keyboard does."""
        self.tap(field)
        field.press("ControlOrMeta+a")
        field.press("Delete")
        self.page.keyboard.type(text)

    def choose(self, group: str, option: str, scope: Locator | None = None) -> None:
        """Tap an option of a segmented choice: a radio group named by its legend."""
        scope = scope or self.page.locator("body")
        radio = scope.get_by_role("group", name=group, exact=True).get_by_role(
            "radio", name=option, exact=True
        )
        self.tap(radio)
        expect(radio).to_be_checked()

    # A new session

    def create_session(
        self,
        names: list[str],
        first_dealer: int = 0,
        name: str = "",
        rules: dict[str, str] | None = None,
    ) -> str:
        """Fill the new-session form by taps and typing; returns the sheet's path. ``rules``
        maps a house rule's legend to the option to tap ("Rounding": "to 10"), or the switch
        "The dealer sits out each hand" to "on"."""
        self.page.goto("/")
        self.tap(self.page.get_by_role("link", name="New session"))
        self.choose("Number of players", str(len(names)))
        seats = self.page.get_by_role("group", name="Players, in seating order")
        for seat, player in enumerate(names):
            self.type_into(seats.get_by_label(f"Player {seat + 1}", exact=True), player)
        # By position: with JavaScript the choices take the names typed, without it "Player N".
        dealer = self.page.get_by_role("group", name="First dealer").get_by_role("radio")
        self.tap(dealer.nth(first_dealer))
        expect(dealer.nth(first_dealer)).to_be_checked()
        if name:
            self.type_into(self.page.get_by_label("Session name"), name)
        if rules:
            fold = self.page.locator("details.house-rules")
            self.tap(fold.locator("summary"))
            for legend, option in rules.items():
                if option == "on":
                    self.tap(fold.get_by_label(legend))
                else:
                    self.choose(legend, option, fold)
        self.tap(self.page.get_by_role("button", name="Start the session"))
        self.page.wait_for_url("**/s/*/")
        return self.page.url.removeprefix(self.page.url.split("/s/")[0])

    # A hand

    @property
    def form(self) -> Locator:
        return self.page.locator("form.hand-form")

    def open_new_hand(self) -> None:
        self.tap(self.page.get_by_role("link", name="New hand"))
        expect(self.form).to_be_visible()
        # Under the sheet, the form's heading takes the focus once the form has settled
        # (app.js): wait for it, or it could take the focus from what the test does next.
        if self.page.locator("#entry .entry-panel").count():
            expect(self.page.locator("#entry .entry-panel h2")).to_be_focused()

    def fill_hand(
        self,
        hand: scoring.Hand,
        names: list[str],
        defence_points=False,
        step=False,
        rules: scoring.Rules = scoring.FFT,
    ):
        """Enter a hand's inputs on the open form, by taps (and the points typed).

        ``defence_points``: type the defence's points and tick the switch. ``step``: type the
        whole points, then tap + for the half point.
        """
        form = self.form
        players = rules.players(hand.seats)
        self.choose("Taker", names[hand.taker], form)
        self.choose("Contract", Contract(hand.contract).label, form)
        if players == 5:
            partner = "alone" if hand.partner is None else names[hand.partner]
            self.choose("Partner", partner, form)
        self.choose("Bouts", str(hand.bouts), form)
        points = Decimal(hand.points)
        typed = scoring.TOTAL_POINTS - points if defence_points else points
        field = form.get_by_label("Points", exact=True)
        if step:
            self.type_into(field, points_text(typed - Decimal("0.5")))
            self.tap(form.get_by_role("button", name="Half a point more"))
        else:
            self.type_into(field, points_text(typed))
        expect(field).to_have_value(points_text(typed))
        switch = form.get_by_label("These are the defence's points")
        if switch.is_checked() != defence_points:
            self.tap(switch)
        announced = (
            hand.petit_au_bout or hand.poignees or hand.chelem or hand.defence_chelem
        ) or hand.miseres
        fold = form.locator("details.announcements")
        if announced and fold.get_attribute("open") is None:
            self.tap(fold.locator("summary"))
        if announced:
            petit = Camp(hand.petit_au_bout).label if hand.petit_au_bout else "none"
            self.choose("Petit au bout", str(petit), form)
            for seat, size in hand.poignees.items():
                trumps = scoring.POIGNEE_TRUMPS[players][size]
                poignees = form.locator("fieldset.poignees:not(.miseres)")
                self.choose(names[seat], f"{Poignee(size).label} ({trumps} trumps)", poignees)
            for seat, count in hand.miseres.items():
                self.choose(names[seat], str(count), form.locator("fieldset.miseres"))
            chelem = Chelem(hand.chelem).label if hand.chelem else "none"
            self.choose("Chelem", str(chelem), form)
            switch = form.get_by_label("Chelem by the defence")
            if switch.is_checked() != hand.defence_chelem:
                self.tap(switch)

    def expect_preview(self, hand: scoring.Hand, names: list[str]) -> None:
        """The live preview shows the row ``score()`` gives, before anything is saved."""
        preview = self.page.locator("#preview")
        expect(preview.locator(".preview-scores .name")).to_have_text(names)
        expect(preview.locator(".preview-scores .score")).to_have_text(
            [signed(value) for value in scoring.score(hand)]
        )
        detail = scoring.breakdown(hand)
        expect(preview.locator(".formula")).to_contain_text(detail.expression())

    def save(self, confirmed: bool = True) -> None:
        """Tap Save. The row shows at once (offline.js); ``confirmed``: wait for the server's."""
        self.tap(self.form.get_by_role("button", name="Save the hand"))
        expect(self.page.locator("#entry .entry-panel")).to_have_count(0)
        if confirmed:
            self.expect_confirmed()

    def pass_deal(self) -> None:
        self.tap(self.form.get_by_role("button", name="Everyone passed"))
        expect(self.page.locator("#entry .entry-panel")).to_have_count(0)
        self.expect_confirmed()

    def expect_confirmed(self) -> None:
        """No row waits for the server any more: every hand shown is stored."""
        expect(self.page.locator("#hands .hand.pending")).to_have_count(0)

    # What the sheet shows

    def row(self, number: int) -> Locator:
        return self.page.locator(f"#hand-{number}")

    def expect_row(self, number: int, scores) -> None:
        expect(self.row(number).locator(".scores .score")).to_have_text(
            [signed(value) for value in scores]
        )
        expect(self.row(number).locator(".checksum")).to_have_text("Σ 0 ✓")

    def expect_totals(self, names: list[str], totals) -> None:
        totals_box = self.page.locator("#totals")
        expect(totals_box.locator(".total .name")).to_have_text(names)
        expect(totals_box.locator(".total .score")).to_have_text(
            [signed(value) for value in totals]
        )

    def open_row(self, number: int) -> Locator:
        row = self.row(number)
        if row.get_attribute("open") is None:
            self.tap(row.locator("summary"))
        return row
