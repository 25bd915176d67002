// `with share` and `with running total`, on a ledger whose answers are worked out by hand.

import AbacusCore
@testable import AbacusQuery
import Testing

@Suite struct ShareTests {
    /// Expenses of 1.00 (Books), 2.00 (Cafe) and 3.00 (Rent) rupees; 6.00 in all.
    static let ledger = """
    {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b", "name": "B", "currency": "INR"}],
     "entries": [{"id": "1", "bookId": "b", "amount": -1, "date": "2025-01-01", "category": "Books"},
                 {"id": "2", "bookId": "b", "amount": -2, "date": "2025-01-02", "category": "Cafe"},
                 {"id": "3", "bookId": "b", "amount": -3, "date": "2025-01-03", "category": "Rent"},
                 {"id": "4", "bookId": "b", "amount": 10, "currency": "USD", "date": "2025-01-04", "category": "Pay"}],
     "rates": [{"from": "USD", "to": "INR", "rate": 80, "date": "2025-01-01"}]}
    """

    func session() throws -> Session {
        Session(ledger: try LedgerLoader.load(documents: [("s.json", ShareTests.ledger)]), today: Day(year: 2025, month: 12, day: 31)!)
    }

    func table(_ r: ResultSet) -> [[String]] { r.rows.map { $0.map { plainText($0) ?? "" } } }

    @Test func sharesAndRunningTotalsOfASum() throws {
        let r = try session().run("sum expenses by category with share with running total")
        #expect(r.names == ["category", "amount", "share", "running total"])
        // 1/6 = 16.66… → 16.7, 2/6 → 33.3, 3/6 → 50.0; running 1, 1+2, 1+2+3.
        #expect(table(r) == [["Books", "1.00", "16.7", "1.00"], ["Cafe", "2.00", "33.3", "3.00"], ["Rent", "3.00", "50.0", "6.00"]])
        #expect(r.totals.first?.suffix(2).allSatisfy { $0 == .empty } == true)
    }

    @Test func aShareIsOfAllRowsARunningTotalOfTheRowsShown() throws {
        // Ranked, top 2: Rent 3 and Cafe 2 of the whole 6: 50.0 and 33.3; running 3, then 5.
        let r = try session().run("sum expenses by category with running total with share order by amount desc top 2")
        #expect(table(r) == [["Rent", "3.00", "50.0", "3.00"], ["Cafe", "2.00", "33.3", "5.00"]])
        // Counts: one entry each of three; each a third.
        let c = try session().run("count expenses by category with share")
        #expect(table(c).map { $0[2] } == ["33.3", "33.3", "33.3"])
    }

    @Test func aShareOfANegativeTotalKeepsItsSign() throws {
        // Entries keep their stored sign: −1, −2, −3 of −6 are 16.7, 33.3 and 50.0 % of it.
        let r = try session().run("sum entries by category where category != \"Pay\" with share")
        #expect(table(r).map { $0[2] } == ["16.7", "33.3", "50.0"])
        // With the 10 USD (800 INR) the total is 794: −1/794 = −0.126 %, −2/794 = −0.252 %,
        // 800/794 = 100.756 %, −3/794 = −0.378 %.
        let all = try session().run("sum entries by category with share")
        #expect(table(all).map { $0[2] } == ["-0.1", "-0.3", "100.8", "-0.4"])
    }

    @Test(arguments: ["avg expenses by category with share", "list expenses with running total", "sum expenses with share"])
    func onlyAGroupedSumOrCountTakesThem(_ q: String) throws {
        var caught: QueryError?
        let s = try session()
        do { _ = try s.run(q) } catch { caught = error }
        #expect(caught?.message.contains("go with a grouped sum or count") == true, "\(q)")
    }

    @Test func inNativeTheyRefuseToAddCurrencies() throws {
        var caught: QueryError?
        let s = try session()
        do { _ = try s.run("sum entries in native by category with share") } catch { caught = error }
        #expect(caught?.message.contains("would add different currencies") == true)
        // One currency is fine.
        #expect(try session().run("sum expenses in native by category with share").rows.count == 3)
    }
}
