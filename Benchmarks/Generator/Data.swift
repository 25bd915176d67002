// Fixed vocabulary of the generated ledgers: currencies, books, categories,
// parties, tags, remarks and payment modes. None of it depends on the seed.

// MARK: - Currencies

/// Indices into the currency tables below.
enum Cur {
    static let INR = 0, USD = 1, SGD = 2, EUR = 3, JPY = 4, GBP = 5, AED = 6, CHF = 7
    static let count = 8
}

let currencyCodes = ["INR", "USD", "SGD", "EUR", "JPY", "GBP", "AED", "CHF"]
/// Digits after the decimal point of an amount.
let minorExponent = [2, 2, 2, 2, 0, 2, 2, 2]
/// Rough INR per unit × 100, used only to give amounts realistic magnitudes.
let roughINRx100 = [100, 8400, 6300, 9200, 57, 10700, 2290, 9600]

/// One currency of the daily USD-based snapshot: a bounded random walk in
/// integer units of the last written digit.
struct RateWalk {
    let currency: Int
    let decimals: Int
    let low: Int
    let high: Int
    let start: Int
    let step: Int
}

/// In the order the snapshot lists them.
let rateWalks: [RateWalk] = [
    RateWalk(currency: Cur.INR, decimals: 4, low: 820_000, high: 880_000, start: 832_000, step: 1_400),
    RateWalk(currency: Cur.SGD, decimals: 4, low: 13_000, high: 13_900, start: 13_400, step: 24),
    RateWalk(currency: Cur.EUR, decimals: 4, low: 8_900, high: 9_500, start: 9_200, step: 28),
    RateWalk(currency: Cur.JPY, decimals: 2, low: 14_000, high: 16_200, start: 14_900, step: 60),
    RateWalk(currency: Cur.GBP, decimals: 4, low: 7_600, high: 8_200, start: 7_900, step: 18),
    RateWalk(currency: Cur.AED, decimals: 4, low: 36_715, high: 36_735, start: 36_725, step: 1),
    RateWalk(currency: Cur.CHF, decimals: 4, low: 8_400, high: 9_200, start: 8_800, step: 22),
]

// MARK: - Books

struct BookSpec {
    let id: String
    let name: String
    let currency: Int
    /// 1 `currency` = this many INR, in units of 0.0001; nil when not locked.
    let lockedRate: Int?
    let description: String?
    /// Days before the start of the range, and the local time, of `createdAt`.
    let createdBefore: Int?
    let createdTime: String
    let archived: Bool?
    /// Share of entries.
    let weight: Int
    /// Active part of the date range, in per mille.
    let window: (Int, Int)
    /// Other currencies an entry of this book is sometimes in, and how often (‰).
    let otherCurrencies: [Int]
    let otherPerMille: Int
    let timeZone: String
    let domestic: Bool
}

let bookSpecs: [BookSpec] = [
    BookSpec(id: "b-home", name: "Home", currency: Cur.INR, lockedRate: nil,
             description: "Household: salary, rent, bills and day-to-day spending in Bengaluru",
             createdBefore: 4, createdTime: "10:15:00+05:30", archived: false, weight: 330,
             window: (0, 1000), otherCurrencies: [Cur.USD], otherPerMille: 10, timeZone: "+05:30", domestic: true),
    BookSpec(id: "b-office", name: "Office", currency: Cur.INR, lockedRate: nil,
             description: "Coworking desk, supplies, team lunches and business travel in India",
             createdBefore: 4, createdTime: "10:20:00+05:30", archived: nil, weight: 150,
             window: (0, 1000), otherCurrencies: [Cur.USD, Cur.SGD], otherPerMille: 20, timeZone: "+05:30", domestic: true),
    BookSpec(id: "b-family", name: "Family", currency: Cur.INR, lockedRate: nil,
             description: "Parents' household in Chennai, school fees and festivals",
             createdBefore: 2, createdTime: "19:45:00+05:30", archived: false, weight: 100,
             window: (0, 1000), otherCurrencies: [], otherPerMille: 0, timeZone: "+05:30", domestic: true),
    BookSpec(id: "b-us-consulting", name: "US Consulting", currency: Cur.USD, lockedRate: nil,
             description: "Freelance consulting for US clients, paid in USD",
             createdBefore: nil, createdTime: "", archived: nil, weight: 90,
             window: (0, 1000), otherCurrencies: [Cur.EUR, Cur.GBP], otherPerMille: 30, timeZone: "Z", domestic: false),
    BookSpec(id: "b-sg-office", name: "Singapore Office", currency: Cur.SGD, lockedRate: nil,
             description: "Regional office in Singapore",
             createdBefore: 30, createdTime: "09:00:00+08:00", archived: false, weight: 70,
             window: (0, 1000), otherCurrencies: [Cur.USD, Cur.JPY], otherPerMille: 40, timeZone: "+08:00", domestic: false),
    BookSpec(id: "b-europe", name: "Europe Tour", currency: Cur.EUR, lockedRate: nil,
             description: "Paris, London, Amsterdam, Berlin, Zurich and Rome",
             createdBefore: 1, createdTime: "09:40:00+05:30", archived: false, weight: 55,
             window: (300, 420), otherCurrencies: [Cur.GBP, Cur.CHF], otherPerMille: 120, timeZone: "+02:00", domestic: false),
    BookSpec(id: "b-tokyo", name: "Tokyo Trip", currency: Cur.JPY, lockedRate: 5_712,
             description: "Tokyo, Kyoto and Osaka",
             createdBefore: 12, createdTime: "21:05:00+05:30", archived: true, weight: 45,
             window: (120, 220), otherCurrencies: [Cur.USD], otherPerMille: 20, timeZone: "+09:00", domestic: false),
    BookSpec(id: "b-london", name: "London Secondment", currency: Cur.GBP, lockedRate: nil,
             description: "Six months at the London office",
             createdBefore: 20, createdTime: "08:30:00+01:00", archived: nil, weight: 50,
             window: (450, 700), otherCurrencies: [Cur.EUR], otherPerMille: 80, timeZone: "+01:00", domestic: false),
    BookSpec(id: "b-dubai", name: "Dubai Trip", currency: Cur.AED, lockedRate: 227_100,
             description: "Dubai and Abu Dhabi with family",
             createdBefore: nil, createdTime: "", archived: false, weight: 30,
             window: (720, 790), otherCurrencies: [Cur.USD], otherPerMille: 100, timeZone: "+04:00", domestic: false),
    BookSpec(id: "b-zurich", name: "Zurich Conference", currency: Cur.CHF, lockedRate: nil,
             description: nil,
             createdBefore: 8, createdTime: "22:10:00+05:30", archived: nil, weight: 25,
             window: (560, 620), otherCurrencies: [Cur.EUR], otherPerMille: 150, timeZone: "+02:00", domestic: false),
    BookSpec(id: "b-singapore", name: "Singapore Trip", currency: Cur.SGD, lockedRate: 621_500,
             description: "Singapore and Sentosa",
             createdBefore: 40, createdTime: "22:30:00+05:30", archived: nil, weight: 25,
             window: (850, 930), otherCurrencies: [Cur.USD], otherPerMille: 30, timeZone: "+08:00", domestic: false),
    BookSpec(id: "b-side-project", name: "Side Project", currency: Cur.USD, lockedRate: nil,
             description: "Hosting, domains and sales of a small SaaS app",
             createdBefore: 15, createdTime: "23:55:00+05:30", archived: false, weight: 30,
             window: (0, 1000), otherCurrencies: [Cur.EUR, Cur.GBP, Cur.INR], otherPerMille: 50, timeZone: "Z", domestic: false),
]

// MARK: - Categories

struct CategorySpec {
    let name: String
    /// Range of magnitudes in INR (major units).
    let low: Int
    let high: Int
    let weight: Int
    /// Amounts in whole hundreds of the currency (salaries, rent).
    let round: Bool
}

let expenseCategories: [CategorySpec] = [
    CategorySpec(name: "Groceries", low: 80, high: 6_000, weight: 120, round: false),
    CategorySpec(name: "Food & Dining", low: 60, high: 4_500, weight: 140, round: false),
    CategorySpec(name: "Rent", low: 15_000, high: 60_000, weight: 6, round: true),
    CategorySpec(name: "Utilities", low: 300, high: 5_000, weight: 15, round: false),
    CategorySpec(name: "Electricity", low: 400, high: 6_000, weight: 10, round: false),
    CategorySpec(name: "Internet", low: 500, high: 2_500, weight: 8, round: false),
    CategorySpec(name: "Mobile", low: 199, high: 1_500, weight: 10, round: false),
    CategorySpec(name: "Transport", low: 40, high: 1_500, weight: 110, round: false),
    CategorySpec(name: "Fuel", low: 500, high: 5_000, weight: 30, round: false),
    CategorySpec(name: "Flights", low: 3_000, high: 60_000, weight: 8, round: false),
    CategorySpec(name: "Hotels", low: 2_000, high: 40_000, weight: 10, round: false),
    CategorySpec(name: "Shopping", low: 200, high: 25_000, weight: 50, round: false),
    CategorySpec(name: "Clothing", low: 500, high: 12_000, weight: 20, round: false),
    CategorySpec(name: "Electronics", low: 1_000, high: 150_000, weight: 8, round: false),
    CategorySpec(name: "Health", low: 200, high: 15_000, weight: 15, round: false),
    CategorySpec(name: "Pharmacy", low: 50, high: 3_000, weight: 20, round: false),
    CategorySpec(name: "Insurance", low: 2_000, high: 50_000, weight: 4, round: true),
    CategorySpec(name: "Education", low: 500, high: 80_000, weight: 6, round: false),
    CategorySpec(name: "Books", low: 150, high: 3_000, weight: 10, round: false),
    CategorySpec(name: "Entertainment", low: 150, high: 5_000, weight: 35, round: false),
    CategorySpec(name: "Subscriptions", low: 99, high: 2_000, weight: 20, round: false),
    CategorySpec(name: "Software", low: 500, high: 30_000, weight: 12, round: false),
    CategorySpec(name: "Office Supplies", low: 50, high: 5_000, weight: 15, round: false),
    CategorySpec(name: "Household", low: 100, high: 8_000, weight: 30, round: false),
    CategorySpec(name: "Personal Care", low: 100, high: 4_000, weight: 20, round: false),
    CategorySpec(name: "Gifts", low: 300, high: 15_000, weight: 12, round: false),
    CategorySpec(name: "Charity", low: 100, high: 10_000, weight: 5, round: false),
    CategorySpec(name: "Taxes", low: 1_000, high: 200_000, weight: 3, round: false),
    CategorySpec(name: "Fees & Charges", low: 10, high: 2_000, weight: 15, round: false),
    CategorySpec(name: "Sightseeing", low: 200, high: 8_000, weight: 15, round: false),
    CategorySpec(name: "Equipment", low: 2_000, high: 200_000, weight: 4, round: false),
    CategorySpec(name: "Coworking", low: 3_000, high: 25_000, weight: 4, round: true),
    CategorySpec(name: "Repairs & Maintenance", low: 200, high: 20_000, weight: 8, round: false),
]

let incomeCategories: [CategorySpec] = [
    CategorySpec(name: "Salary", low: 50_000, high: 300_000, weight: 20, round: true),
    CategorySpec(name: "Consulting Fees", low: 20_000, high: 800_000, weight: 15, round: true),
    CategorySpec(name: "Interest", low: 10, high: 20_000, weight: 10, round: false),
    CategorySpec(name: "Dividends", low: 100, high: 50_000, weight: 8, round: false),
    CategorySpec(name: "Refund", low: 50, high: 20_000, weight: 20, round: false),
    CategorySpec(name: "Cashback", low: 5, high: 2_000, weight: 15, round: false),
    CategorySpec(name: "Reimbursement", low: 100, high: 50_000, weight: 10, round: false),
    CategorySpec(name: "Rental Income", low: 10_000, high: 60_000, weight: 4, round: true),
]

let transferCategory = "Transfer"

// MARK: - Parties

/// Exactly 500 distinct names, a few with characters that need escaping or
/// are not ASCII.
let partyNames: [String] = {
    var names: [String] = [
        "Amazon", "Flipkart", "Swiggy", "Zomato", "Uber", "Ola", "BigBasket", "Blinkit",
        "Zepto", "DMart", "Reliance Fresh", "More Supermarket", "Apollo Pharmacy", "MedPlus",
        "Tata 1mg", "Netflix", "Spotify", "YouTube Premium", "Apple", "Google Cloud",
        "Amazon Web Services", "GitHub", "JetBrains", "Figma", "Notion", "Slack", "Zoom",
        "Airtel", "Jio", "BESCOM", "BWSSB", "ACT Fibernet", "Indian Oil", "HP Petrol Pump",
        "Shell", "IndiGo", "Air India", "Vistara", "Singapore Airlines", "Emirates",
        "Lufthansa", "British Airways", "Marriott", "Taj Hotels", "ibis", "Airbnb",
        "Booking.com", "MakeMyTrip", "IRCTC", "Namma Metro", "Rapido", "Decathlon",
        "IKEA", "H&M", "Uniqlo", "Zara", "Croma", "Reliance Digital", "Meghana Foods",
        "Empire Restaurant", "Third Wave Coffee", "Starbucks", "Café Coffee Day",
        "Tesco Express", "Sainsbury's", "Pret A Manger", "Transport for London",
        "SBB CFF FFS", "Migros", "Coop", "Müller Drogerie", "Carrefour", "Monoprix",
        "RATP", "Deutsche Bahn", "Lawson", "FamilyMart", "7-Eleven", "Don Quijote",
        "Ichiran Ramen", "寿司 Sushi Zanmai", "JR East", "Suica top-up", "Grab", "Gojek",
        "FairPrice", "Cold Storage", "Din Tai Fung", "Jumbo Seafood", "Dubai Mall",
        "Carrefour Dubai", "RTA Nol Card", "Careem", "Al Mallah", "Brightline Analytics LLC",
        "Northwind Traders Inc.", "Acme Technologies Pvt Ltd", "HDFC Bank", "ICICI Bank",
        "SBI", "Zerodha", "LIC", "Star Health", "Cult.fit", "BookMyShow", "PVR INOX",
        "Urban Company", "Joe's \"Famous\" Diner", "Back\\slash Books", "O'Brien & Sons",
        "Lakshmi (house help)", "Ramesh Iyer (landlord)", "Sri Krishna Sweets", "Chai Point",
    ]
    let firsts = ["Arjun", "Priya", "Ravi", "Ananya", "Vikram", "Meera", "Karthik", "Divya",
                  "Suresh", "Kavya", "Rahul", "Sneha", "Amit", "Pooja", "Naveen", "Lakshmi",
                  "Sanjay", "Deepa", "Rohan", "Aisha"]
    let lasts = ["Iyer", "Sharma", "Nair", "Reddy", "Menon", "Gupta", "Rao", "Pillai",
                 "Kumar", "Das", "Patel", "Singh", "Bose", "Mehta", "Joshi"]
    let adjectives = ["Green Leaf", "Sunrise", "Royal", "Blue Moon", "Golden", "Silver Oak",
                      "Lotus", "Urban", "Metro", "Coastal", "Highland", "Maple", "Cedar",
                      "Saffron", "Spice Route", "Harbour", "Sakura", "Alpine", "Desert Rose",
                      "Thames", "Lakeview", "Old Town", "Riverside", "Hilltop", "Evergreen"]
    let kinds = ["Cafe", "Traders", "Supermarket", "Pharmacy", "Bistro", "Motors", "Books",
                 "Electronics", "Tailors", "Bakery", "Clinic", "Hardware", "Kitchen",
                 "Stores", "Travels", "Opticals", "Florist", "Laundry"]
    var seen = Set(names)
    // People and shops, interleaved so the list mixes.
    var people: [String] = []
    for i in 0..<(firsts.count * lasts.count) {
        people.append("\(firsts[i % firsts.count]) \(lasts[i / firsts.count])")
    }
    var shops: [String] = []
    for i in 0..<(adjectives.count * kinds.count) {
        shops.append("\(adjectives[i % adjectives.count]) \(kinds[i / adjectives.count])")
    }
    var p = 0, s = 0
    while names.count < 500 {
        let candidate: String
        if (names.count % 3 == 0 && p < people.count) || s >= shops.count {
            precondition(p < people.count, "party name pools exhausted")
            candidate = people[p]; p += 1
        } else {
            candidate = shops[s]; s += 1
        }
        if seen.insert(candidate).inserted { names.append(candidate) }
    }
    return names
}()

// MARK: - Tags, remarks, payment modes

let tagNames = ["work", "family", "vacation", "reimbursable", "tax-deductible", "recurring",
                "client-brightline", "client-northwind", "london", "tokyo", "kids", "health",
                "gift", "festival", "weekend", "online", "subscription", "shared", "urgent",
                "card-points"]

let remarkTexts = ["Monthly membership", "Split with Arjun", "Breakfast", "Lunch with team",
                   "Dinner", "Airport cab", "Annual plan", "Refund for cancelled order",
                   "Invoice", "Order", "Birthday gift", "Diwali shopping", "Weekly groceries",
                   "Late fee waived?", "Paid in advance", "Reimbursed by office", "Conference ticket",
                   "EC2 + S3", "Duty free", "Museum passes", "Train tickets", "Metro card top-up",
                   "School fees, term 2", "Doctor's visit", "Medicines for mom", "New tyres",
                   "AC service", "Plumber", "Hotel deposit", "Taxi to hotel", "Souvenirs",
                   "Coffee beans", "Books for the kids", "Quarterly advance tax",
                   "Retainer", "Bank charges", "Forex markup", "Tip included", "Café au lait ☕",
                   "Receipt \"lost\" — estimate", "Path C:\\receipts\\scan"]

let paymentModes = ["UPI", "Credit Card", "Debit Card", "Cash", "Bank Transfer"]
/// Weights per mode, then the weight of "no payment mode".
let domesticModeWeights = [50, 25, 8, 10, 4, 3]
let foreignModeWeights = [0, 50, 15, 25, 5, 5]
let incomeModeWeights = [10, 0, 0, 2, 80, 8]
