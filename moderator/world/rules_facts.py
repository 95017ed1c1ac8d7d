"""Facts about the map that the rules text states outright.

`moderator scenario check` and the tests hold the data files to these. Each table
names the rules section it comes from; a moderator editing maps/ must keep them true.
"""

from __future__ import annotations

# Phase 1.4 (unrestricted submarine warfare table) and Phase 4.1.3 (strategic movement examples).
STATED_VALUES: dict[str, int] = {
    "London": 31, "Hamburg": 15, "Trieste": 6, "Brest": 12, "Milan": 12, "Tokyo": 19,
    "Zheijang": 5, "Petrograd": 5, "Constantinople": 8, "Barcelona": 8,
    "Warsaw": 2, "Vladivostok": 1, "Khabarovsk": 1,
    "Mosul": 1, "Baghdad": 5, "Basra": 2, "Izmir": 3, "Sinope": 3,
}
# Phase 1.4: "USA - US Atlantic Coast, US Pacific Coast - East Coast, LA - 76".
STATED_SUMS: dict[tuple[str, ...], int] = {("East Coast", "LA"): 76}

# Phase 1.4 table: targeted sea zone(s) -> targeted territory (must touch).
SUBMARINE_TARGETS: tuple[tuple[str, str], ...] = (
    ("North Sea", "London"), ("Middle Atlantic", "London"), ("Skagerrak", "Hamburg"),
    ("Adriatic Sea", "Trieste"), ("Middle Atlantic", "Brest"), ("US Atlantic Coast", "East Coast"),
    ("US Pacific Coast", "LA"), ("Tyrrenean Sea", "Milan"), ("Sea of Japan", "Tokyo"),
    ("Yellow Sea", "Zheijang"), ("Gulf of Bothnia", "Petrograd"), ("Aegan Sea", "Constantinople"),
    ("Western Mediteranean Sea", "Barcelona"),
)

# "Straits": the eleven straits represented on the maps.
STRAITS: tuple[tuple[str, str], ...] = (
    ("Spanish Morocco", "Seville"), ("Northern Ireland", "Glasgow"), ("Corsica", "Sardinia"),
    ("Sicily", "Taranto"), ("Constantinople", "Izmir"), ("Constantinople", "Sinope"),
    ("Sevastopol", "Krasnodar"), ("Sumatra", "Java"), ("Tokyo", "Hokkaido"),
    ("Hokkaido", "Sakhalin"), ("Suez Canal", "Palestine"),
)

# "The Map": the cross-map connection list, as the rules spell the names.
CROSS_MAP: tuple[tuple[str, str], ...] = (
    ("Bristol Bay", "Sea of Okhost"), ("Eastern Pacific Ocean", "N. Pacific Ocean"),
    ("Middle Pacific Ocean", "Central Pacific Ocean"), ("Middle Pacific Ocean", "Bismark Sea"),
    ("Gulf of Tehuantepec", "Coral Sea"), ("Gulf of Tehuantepec", "Gulf of Mexico"),
    ("Hudson Bay", "Northern Atlantic"), ("Hudson Bay", "Middle Atlantic"),
    ("Western Atlantic", "Middle Atlantic"), ("Western Atlantic", "Southern Atlantic"),
    ("Caribbean Sea", "Southern Atlantic"), ("Caribbean Sea", "Cape Verde"),
    ("Cape Verde", "Southern Atlantic"), ("Western Indian Ocean", "Central Indian Ocean"),
    ("Red Sea", "East Indian Ocean"), ("Red Sea", "Eastern Mediterranean"), ("Red Sea", "Palestine"),
    ("Spanish Morocco", "Seville"), ("Suez Canal", "Palestine"),
    ("East Indian Ocean", "Persian Gulf"), ("Pakistan", "Ahvaz"), ("Afghanistan", "Terhan"),
    ("Turkmen", "Tehran"), ("Western Kazan", "Kazan"), ("Western Kazan", "Volgograd"),
    ("Urals Mts.", "Perm"), ("Urals Mts.", "Nizhiy"), ("Urals Mts.", "Kazan"),
    ("Eastern Mediterranean", "Suez Canal"), ("Eastern Mediterranean", "Egypt"),
    ("Eastern Mediterranean", "Libya"), ("Ionian Sea", "Algeria"), ("Ionian Sea", "Lybia"),
    ("Western Mediterranean", "Algeria"), ("Western Mediterranean", "Spanish Morocco"),
)

# Other Key Map Features and the "General note concerning some straits": sea pairs joined
# by a controlled passage.
CONTROLLED_SEA_PASSAGES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Baltic Sea", "Skagerrak", ("Denmark",)),
    ("Baltic Sea", "Skagerrak", ("Hamburg",)),
    ("Western Mediterranean", "Southern Atlantic", ("Gibraltar",)),
    ("Red Sea", "Eastern Mediterranean", ("Suez Canal",)),
    ("Aegean Sea", "Western Black Sea", ("Constantinople", "Izmir", "Sinope")),
    ("Java Sea", "Celebes Sea", ("Sumatra", "Java")),
    ("South China Sea", "Philipine Sea", ("Philipines",)),
    ("Gulf of Mexico", "Gulf of Tehuantepec", ("Panama Canal",)),
)

# Features the rules give to named territories ("Other Key Map Features").
FEATURES: tuple[tuple[str, str], ...] = (
    ("Switzerland", "alps"), ("Afghanistan", "high-mountains"), ("Tibet", "high-mountains"),
    ("Gibraltar", "fortress"), ("Hamburg", "kiel-canal"), ("Suez Canal", "canal"),
)

# Every other place the rules name (US trade, starvation, special objectives, examples).
# Group names ("Poland", "Baltic States", "Finland", "colonies", ...) may be a group instead.
NAMED_PLACES: tuple[str, ...] = (
    "English Channel", "Bay of Biscay", "Irish Sea", "Norwegian Sea", "Skagerrak", "Baltic Sea",
    "Gulf of Lyon", "Sea of Japan", "Yellow Sea", "Sea of Okhost", "Kamchatka", "Vladivostok",
    "Toulouse", "Bordeaux", "Paris", "Alsace-Lorraine", "Ruhr", "Trieste", "Bosnia", "Amiens",
    "Marseille", "Belgium", "Denmark", "Korea", "Hong Kong", "Indo-China", "Jiaozhou", "Jiazhou",
    "Serbia", "Macedonia", "Venice", "Cologne", "Cameroon", "Konigsberg", "Lemberg", "Krakow",
    "Galicia", "Transylvania", "Manchuka", "Albania", "Bremen", "GE Africa", "Insbruck", "Normandy",
    "Egypt", "Sudan", "Ethiopia", "Indochina", "Malaya", "Philipines", "Cyprus", "Kuwait",
    "Palestine", "Ramadi", "Lybia", "Phillippines", "Baghdad", "Damascus", "Constantinople",
    "SouthWest", "Rutba", "Kaf", "Crete", "Kaiser Wilhelm Land", "Baku", "Tbilisi", "Groznyy",
    "Madagaskar", "Odessa", "Vinista", "Estonia", "Latvia", "Lithuania", "Helsinki", "Lapri",
    "Vyborg", "Gibraltar", "Suez Canal", "Tibet", "Afghanistan", "Switzerland", "Seville",
    "Sinoope", "Okhost", "Tehran", "India", "Siam", "Java Sea", "Celebes Sea", "South China Sea",
    "Philipine Sea", "Sumatra", "Java", "Hokkaido", "Sakhalin", "Sevastopol", "Krasnodar",
    "Glasgow", "Northern Ireland", "Corsica", "Sardinia", "Sicily", "Taranto", "Izmir",
)
GROUPS_EXPECTED: tuple[str, ...] = ("Poland", "Baltic States", "Finland")

# Phase 4.1.3 worked examples: (nation, origin, destinations, units that can arrive).
STRATEGIC_EXAMPLES: tuple[tuple[str, str, tuple[str, ...], int], ...] = (
    ("russia", "Warsaw", ("Vladivostok", "Khabarovsk"), 2),
    ("ottoman", "Constantinople", ("Mosul", "Baghdad", "Basra"), 2),
)
