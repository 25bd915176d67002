// ISO 4217 active currency codes with their minor units and English names.
// The minor unit is ISO's, not CLDR's: where they differ (IQD, RSD, LAK...) ISO wins,
// because money in JSON and CSV output is rounded to the ISO minor unit.
// Source: ISO 4217 List One (active codes).
let iso4217Table = """
AED\t2\tUAE Dirham
AFN\t2\tAfghani
ALL\t2\tLek
AMD\t2\tArmenian Dram
ANG\t2\tNetherlands Antillean Guilder
AOA\t2\tKwanza
ARS\t2\tArgentine Peso
AUD\t2\tAustralian Dollar
AWG\t2\tAruban Florin
AZN\t2\tAzerbaijan Manat
BAM\t2\tConvertible Mark
BBD\t2\tBarbados Dollar
BDT\t2\tTaka
BGN\t2\tBulgarian Lev
BHD\t3\tBahraini Dinar
BIF\t0\tBurundi Franc
BMD\t2\tBermudian Dollar
BND\t2\tBrunei Dollar
BOB\t2\tBoliviano
BOV\t2\tMvdol
BRL\t2\tBrazilian Real
BSD\t2\tBahamian Dollar
BTN\t2\tNgultrum
BWP\t2\tPula
BYN\t2\tBelarusian Ruble
BZD\t2\tBelize Dollar
CAD\t2\tCanadian Dollar
CDF\t2\tCongolese Franc
CHE\t2\tWIR Euro
CHF\t2\tSwiss Franc
CHW\t2\tWIR Franc
CLF\t4\tUnidad de Fomento
CLP\t0\tChilean Peso
CNY\t2\tYuan Renminbi
COP\t2\tColombian Peso
COU\t2\tUnidad de Valor Real
CRC\t2\tCosta Rican Colon
CUC\t2\tPeso Convertible
CUP\t2\tCuban Peso
CVE\t2\tCabo Verde Escudo
CZK\t2\tCzech Koruna
DJF\t0\tDjibouti Franc
DKK\t2\tDanish Krone
DOP\t2\tDominican Peso
DZD\t2\tAlgerian Dinar
EGP\t2\tEgyptian Pound
ERN\t2\tNakfa
ETB\t2\tEthiopian Birr
EUR\t2\tEuro
FJD\t2\tFiji Dollar
FKP\t2\tFalkland Islands Pound
GBP\t2\tPound Sterling
GEL\t2\tLari
GHS\t2\tGhana Cedi
GIP\t2\tGibraltar Pound
GMD\t2\tDalasi
GNF\t0\tGuinean Franc
GTQ\t2\tQuetzal
GYD\t2\tGuyana Dollar
HKD\t2\tHong Kong Dollar
HNL\t2\tLempira
HTG\t2\tGourde
HUF\t2\tForint
IDR\t2\tRupiah
ILS\t2\tNew Israeli Sheqel
INR\t2\tIndian Rupee
IQD\t3\tIraqi Dinar
IRR\t2\tIranian Rial
ISK\t0\tIceland Krona
JMD\t2\tJamaican Dollar
JOD\t3\tJordanian Dinar
JPY\t0\tYen
KES\t2\tKenyan Shilling
KGS\t2\tSom
KHR\t2\tRiel
KMF\t0\tComorian Franc
KPW\t2\tNorth Korean Won
KRW\t0\tWon
KWD\t3\tKuwaiti Dinar
KYD\t2\tCayman Islands Dollar
KZT\t2\tTenge
LAK\t2\tLao Kip
LBP\t2\tLebanese Pound
LKR\t2\tSri Lanka Rupee
LRD\t2\tLiberian Dollar
LSL\t2\tLoti
LYD\t3\tLibyan Dinar
MAD\t2\tMoroccan Dirham
MDL\t2\tMoldovan Leu
MGA\t2\tMalagasy Ariary
MKD\t2\tDenar
MMK\t2\tKyat
MNT\t2\tTugrik
MOP\t2\tPataca
MRU\t2\tOuguiya
MUR\t2\tMauritius Rupee
MVR\t2\tRufiyaa
MWK\t2\tMalawi Kwacha
MXN\t2\tMexican Peso
MXV\t2\tMexican Unidad de Inversion (UDI)
MYR\t2\tMalaysian Ringgit
MZN\t2\tMozambique Metical
NAD\t2\tNamibia Dollar
NGN\t2\tNaira
NIO\t2\tCordoba Oro
NOK\t2\tNorwegian Krone
NPR\t2\tNepalese Rupee
NZD\t2\tNew Zealand Dollar
OMR\t3\tRial Omani
PAB\t2\tBalboa
PEN\t2\tSol
PGK\t2\tKina
PHP\t2\tPhilippine Peso
PKR\t2\tPakistan Rupee
PLN\t2\tZloty
PYG\t0\tGuarani
QAR\t2\tQatari Rial
RON\t2\tRomanian Leu
RSD\t2\tSerbian Dinar
RUB\t2\tRussian Ruble
RWF\t0\tRwanda Franc
SAR\t2\tSaudi Riyal
SBD\t2\tSolomon Islands Dollar
SCR\t2\tSeychelles Rupee
SDG\t2\tSudanese Pound
SEK\t2\tSwedish Krona
SGD\t2\tSingapore Dollar
SHP\t2\tSaint Helena Pound
SLE\t2\tLeone
SOS\t2\tSomali Shilling
SRD\t2\tSurinam Dollar
SSP\t2\tSouth Sudanese Pound
STN\t2\tDobra
SVC\t2\tEl Salvador Colon
SYP\t2\tSyrian Pound
SZL\t2\tLilangeni
THB\t2\tBaht
TJS\t2\tSomoni
TMT\t2\tTurkmenistan New Manat
TND\t3\tTunisian Dinar
TOP\t2\tPa’anga
TRY\t2\tTurkish Lira
TTD\t2\tTrinidad and Tobago Dollar
TWD\t2\tNew Taiwan Dollar
TZS\t2\tTanzanian Shilling
UAH\t2\tHryvnia
UGX\t0\tUganda Shilling
USD\t2\tUS Dollar
USN\t2\tUS Dollar (Next day)
UYI\t0\tUruguay Peso en Unidades Indexadas (UI)
UYU\t2\tPeso Uruguayo
UYW\t4\tUnidad Previsional
UZS\t2\tUzbekistan Sum
VED\t2\tBolívar Soberano
VES\t2\tBolívar Soberano
VND\t0\tDong
VUV\t0\tVatu
WST\t2\tTala
XAF\t0\tCFA Franc BEAC
XAG\t0\tSilver
XAU\t0\tGold
XBA\t0\tBond Markets Unit European Composite Unit (EURCO)
XBB\t0\tBond Markets Unit European Monetary Unit (E.M.U.-6)
XBC\t0\tBond Markets Unit European Unit of Account 9 (E.U.A.-9)
XBD\t0\tBond Markets Unit European Unit of Account 17 (E.U.A.-17)
XCD\t2\tEast Caribbean Dollar
XCG\t2\tCaribbean Guilder
XDR\t0\tSDR (Special Drawing Right)
XOF\t0\tCFA Franc BCEAO
XPD\t0\tPalladium
XPF\t0\tCFP Franc
XPT\t0\tPlatinum
XSU\t0\tSucre
XTS\t0\tCodes specifically reserved for testing purposes
XUA\t0\tADB Unit of Account
XXX\t0\tThe codes assigned for transactions where no currency is involved
YER\t2\tYemeni Rial
ZAR\t2\tRand
ZMW\t2\tZambian Kwacha
ZWG\t2\tZimbabwe Gold
"""
