// Demo content for Everlight. Pure data: no imports, no side effects.
// All people, tributes, products and articles are fictional.

export type DemoOwner = "admin" | "alice" | "bob";

export type DemoTribute = {
  authorName: string;
  authorEmail: string | null;
  content: string;
  isApproved: boolean;
  daysAgo: number;
};

export type DemoMemorial = {
  owner: DemoOwner;
  firstName: string;
  lastName: string;
  title: string;
  dateOfBirth: string | null;
  dateOfPassing: string | null;
  biography: string;
  visibility: "public" | "friends" | "private";
  isPublished: boolean;
  portrait: string | null;
  viewCount: number;
  daysAgo: number;
  tributes: DemoTribute[];
};

export type DemoProduct = {
  name: string;
  description: string;
  price: number;
  category: "Frames" | "Candles" | "Garden" | "Books" | "Jewelry" | "Cards" | "Urns" | "Textiles";
  stockQuantity: number;
  imageUrl: string;
  isActive: boolean;
};

export type DemoNews = {
  title: string;
  description: string;
  url: string;
  urlToImage: string | null;
  publishedAt: string;
  source: string;
  personName: string;
};

export const demoMemorials: DemoMemorial[] = [
  // ---------------------------------------------------------------- alice
  {
    owner: "alice",
    firstName: "Margaret",
    lastName: "Ellis",
    title: "Beloved grandmother, gardener and teacher",
    dateOfBirth: "1931-04-12",
    dateOfPassing: "2021-11-03",
    biography:
      "Margaret was born above her father's ironmonger's shop on Corve Street in Ludlow, and apart from two years at teacher training college in Worcester she never really saw the point of living anywhere else. She taught at the little primary school in Church Stretton for thirty-one years, and there are grown men and women all over south Shropshire who still cannot split an infinitive without hearing her tut.\n\n" +
      'She married Frank Ellis, a railway signalman, in 1954 at St Laurence\'s, and they had forty-six happy years together, three children and a succession of badly behaved spaniels. After Frank died she threw herself into the garden. Her sweet peas won at the Ludlow show more times than the committee liked to admit, and she kept a notebook of every variety she had ever grown, with comments such as "sulky" and "worth the fuss".\n\n' +
      "Margaret listened to Gardeners' Question Time every Sunday and argued with the panel out loud. She always had a tin of humbugs in her handbag, corrected the apostrophes on the greengrocer's signs with a pencil, and walked up to the castle every morning until she was eighty-seven.\n\n" +
      "She leaves her children, Susan, Peter and Ruth, seven grandchildren, two great-grandchildren and a great many very well-spoken former pupils.",
    visibility: "public",
    isPublished: true,
    portrait: "/demo/portraits/margaret.svg",
    viewCount: 214,
    daysAgo: 320,
    tributes: [
      {
        authorName: "David Hollins",
        authorEmail: "david.hollins@example.com",
        content:
          'Mrs Ellis taught me to read in 1968 and I have never stopped since. She once kept me in at playtime for writing "could of", and I have thanked her for it silently every day of my working life.',
        isApproved: true,
        daysAgo: 318,
      },
      {
        authorName: "Jean Bradley",
        authorEmail: null,
        content:
          "We stood next to each other on the sweet pea bench at the show for twenty years. She beat me more often than not and was always gracious about it, which was somehow worse.",
        isApproved: true,
        daysAgo: 301,
      },
      {
        authorName: "Tom (grandson)",
        authorEmail: "tom.ellis@example.com",
        content: "Gran, I planted your Cupani seeds this spring and they came up beautifully. Still can't find where you hid the humbugs.",
        isApproved: true,
        daysAgo: 140,
      },
      {
        authorName: "Anne Pritchard",
        authorEmail: null,
        content:
          "Margaret was the first person to welcome us when we moved to Ludlow, with a jar of her plum jam and a list of who not to buy coal from. I think of her every time I walk past the castle.",
        isApproved: false,
        daysAgo: 3,
      },
    ],
  },
  {
    owner: "alice",
    firstName: "Desmond",
    lastName: "Clarke",
    title: "Devoted husband, bus driver and Handsworth's finest dominoes player",
    dateOfBirth: "1938-08-22",
    dateOfPassing: "2019-02-14",
    biography:
      "Desmond was born in Kingston, Jamaica, and sailed for England in the spring of 1959 with one good suit, a cardboard suitcase and a letter of introduction to a cousin in Handsworth. The cousin had moved, so Desmond found his own lodgings on Grove Lane, and Birmingham was home from then on.\n\n" +
      "He drove buses for West Midlands Travel and its predecessors for twenty-eight years, most of them on the Number 8 Inner Circle, and he knew half of his regular passengers by name. He met Gloria at a dance at the Ladywood community centre in 1962, and he liked to say that she agreed to marry him only because he was the best-dressed man in the room. He may have been right.\n\n" +
      "Desmond sang bass in the choir at his church on Soho Road for over forty years, followed Aston Villa with a faith that was tested most seasons, and slammed down dominoes at the social club with a crack you could hear from the car park. He never left the house without a hat and a pressed handkerchief.\n\n" +
      "He and Gloria raised four children, Marcia, Leon, Paulette and Junior, and were the proud grandparents of nine. His laugh filled every room he walked into, and we miss it terribly.",
    visibility: "public",
    isPublished: true,
    portrait: "/demo/portraits/desmond.svg",
    viewCount: 167,
    daysAgo: 280,
    tributes: [
      {
        authorName: "Winston Bailey",
        authorEmail: "winston.bailey@example.com",
        content: "Forty years across the dominoes table and I only beat him fair and square twice. Rest easy, Des. The club is too quiet without you.",
        isApproved: true,
        daysAgo: 276,
      },
      {
        authorName: "Sandra Mills",
        authorEmail: null,
        content:
          "Mr Clarke drove the Number 8 when I was at college and always waited that extra few seconds when he saw me running for the stop. He wished me luck on every exam day.",
        isApproved: true,
        daysAgo: 190,
      },
      {
        authorName: "Pastor Michael Grant",
        authorEmail: "m.grant@example.com",
        content:
          'Desmond\'s bass voice held our choir together for four decades. We sang "How Great Thou Art" for him last Sunday and left a space on the back row.',
        isApproved: false,
        daysAgo: 2,
      },
    ],
  },
  {
    owner: "alice",
    firstName: "Fiona",
    lastName: "MacLeod",
    title: "Mother, radiographer and Munro-bagger",
    dateOfBirth: "1960-07-30",
    dateOfPassing: "2016-12-11",
    biography:
      "Fiona grew up in Stornoway on the Isle of Lewis, the youngest of four and the only one who was ever seasick on the ferry. She went to Glasgow to train as a radiographer and then spent twenty-five years at Raigmore Hospital in Inverness, where she was known for warming her hands before she positioned anyone and for knowing the name of every porter in the building.\n\n" +
      "Fiona's real love was the hills. She climbed her first Munro, Ben Wyvis, at nineteen in borrowed boots, and completed the full round on Ben More Assynt in 2009 with a flask of tea, a hip flask of something stronger and a crowd of friends who had been dragged up at least one of the others with her. She kept every map, annotated in green ink with the weather and who complained.\n\n" +
      "She sang in Gaelic at the local Mòd, made a famously dense clootie dumpling at Hogmanay, and volunteered on the fundraising committee for the Kessock lifeboat. She was single-handedly responsible for at least three of the best ceilidhs ever held in North Kessock village hall.\n\n" +
      "Fiona is survived by her daughter Isla, her brothers Alasdair and Ruaridh, her sister Catriona, and an awful lot of people who will never again climb a hill without thinking of her.",
    visibility: "public",
    isPublished: true,
    portrait: "/demo/portraits/fiona.svg",
    viewCount: 98,
    daysAgo: 190,
    tributes: [
      {
        authorName: "Kirsty Munro",
        authorEmail: null,
        content: "Fiona talked me up Liathach in a gale and made it feel like a Sunday stroll. I still carry the spare pair of gloves she insisted I take.",
        isApproved: true,
        daysAgo: 185,
      },
      {
        authorName: "Dr Neil Fraser",
        authorEmail: "neil.fraser@example.com",
        content: "The finest radiographer I worked with in thirty years at Raigmore, and the kindest. Patients asked for her by name.",
        isApproved: true,
        daysAgo: 120,
      },
      {
        authorName: "Isla's school friend, Morven",
        authorEmail: null,
        content:
          "Fiona drove half our class to the Mòd in Stornoway one year and taught us all the harmonies on the ferry. I sang one of them at my own daughter's wedding.",
        isApproved: false,
        daysAgo: 6,
      },
    ],
  },
  {
    owner: "alice",
    firstName: "Amara",
    lastName: "Okafor",
    title: "Daughter, sister, speech therapist and the life of every party",
    dateOfBirth: "1990-10-09",
    dateOfPassing: "2022-03-04",
    biography:
      "Amara was born at King's College Hospital and grew up on Choumert Road in Peckham, the eldest of three and the undisputed boss of the household by the age of six. Her parents had come to London from Enugu in the 1980s, and she was fiercely proud of both her Nigerian roots and her south London accent, which she could switch between mid-sentence.\n\n" +
      "She studied speech and language therapy at City, University of London, and went on to work with young children in Lewisham. She had endless patience with a three-year-old learning his first words and no patience at all with a broken photocopier. The families she worked with sent cards for years afterwards.\n\n" +
      "Amara sang alto in a gospel choir in Camberwell, ran a Saturday-morning book club that met in a café on Bellenden Road and rarely finished the book, and would defend her mother's jollof rice against all comers, especially anyone from Ghana. She knew every word of every Destiny's Child song and was not shy about proving it.\n\n" +
      "She was diagnosed with cancer in 2020 and faced it with the same stubborn good humour she brought to everything. She leaves her parents, Ngozi and Emeka, her brother Chidi, her sister Adaeze, and friends on every continent.",
    visibility: "public",
    isPublished: true,
    portrait: "/demo/portraits/amara.svg",
    viewCount: 240,
    daysAgo: 150,
    tributes: [
      {
        authorName: "Chidi Okafor",
        authorEmail: "chidi.okafor@example.com",
        content: "Big sis, you were right about everything, including the jollof. Love you always.",
        isApproved: true,
        daysAgo: 149,
      },
      {
        authorName: "Hannah Cole",
        authorEmail: null,
        content:
          'Amara was my son\'s speech therapist when he was three. The first full sentence he ever said was "Miss Amara is here". We will never forget her.',
        isApproved: true,
        daysAgo: 140,
      },
      {
        authorName: "Priya Shah",
        authorEmail: "priya.shah@example.com",
        content:
          "Book club was never really about the books. It was about Amara making a room full of strangers into friends in about ten minutes. We still meet on the first Saturday, and we still don't finish the books.",
        isApproved: true,
        daysAgo: 98,
      },
      {
        authorName: "Grace Adebayo",
        authorEmail: null,
        content: "Singing next to you in the altos was a joy. Every Easter we will save you a seat.",
        isApproved: true,
        daysAgo: 60,
      },
      {
        authorName: "Leo Marsh",
        authorEmail: "leo.marsh@example.com",
        content: "We shared a flat in second year and she taught me to cook egusi soup at two in the morning. Thank you for every laugh, Amara.",
        isApproved: true,
        daysAgo: 21,
      },
    ],
  },
  {
    owner: "alice",
    firstName: "Samuel",
    lastName: "Adeyemi",
    title: "Engineer, chess teacher and proud father",
    dateOfBirth: "1955-12-01",
    dateOfPassing: "2017-08-20",
    biography:
      "Samuel was born in Lagos and came to Manchester in 1975 to study civil engineering at UMIST. He arrived in a January sleet storm wearing a light linen jacket, and often said that the cold was the only thing about Manchester he never got used to.\n\n" +
      "He spent most of his career designing bridges and drainage for the county council and later for a consultancy in Stockport, and he was quietly delighted that part of the first Metrolink line carried a little of his work. He could explain load-bearing calculations to a ten-year-old using nothing but a pack of digestive biscuits.\n\n" +
      "On Thursday evenings for more than twenty years he ran the junior chess club at Heaton Moor library. He never let a child win, but he always showed them exactly how they could have, and several of his pupils went on to play for Lancashire. At home he played highlife records on a turntable he refused to replace, grew enormous tomatoes in a lean-to greenhouse, and made pepper soup that could clear anyone's cold.\n\n" +
      "Samuel married Funmi in 1981 and they had three children, Tunde, Bisi and Kemi. He was a patient, funny and deeply kind man who always had time for one more game.",
    visibility: "private",
    isPublished: true,
    portrait: "/demo/portraits/samuel.svg",
    viewCount: 12,
    daysAgo: 95,
    tributes: [
      {
        authorName: "Kemi Adeyemi",
        authorEmail: "kemi.adeyemi@example.com",
        content: "Dad, I finally beat Tunde at chess using the Sicilian you taught me. He was furious. You would have loved it.",
        isApproved: true,
        daysAgo: 40,
      },
    ],
  },
  {
    owner: "alice",
    firstName: "Ahmed",
    lastName: "Hussain",
    title: "Family man, restaurateur and Saturday-league fast bowler",
    dateOfBirth: "1968-04-23",
    dateOfPassing: null,
    biography:
      "Ahmed was born in Bradford, the second of five children, a year after his parents arrived from Mirpur. He grew up on the streets around Lumb Lane, played cricket in every gap between terraced houses that would take a set of stumps, and was bowling for Manningham Mills in the Bradford League by the time he was sixteen.\n\n" +
      "After a few years driving a taxi through the night, he and his brother Tariq opened a restaurant on Leeds Road in 1996. It was never the fanciest place on the road, but it was the one where the staff knew your order before you sat down, and where Ahmed would come out of the kitchen to argue about the Test match with anyone who would listen.\n\n" +
      "He married Nasreen in 1992 and they raised three daughters, who he spoiled completely while pretending to be strict. He loved long drives to Filey, his brother's terrible jokes, Yorkshire tea with far too much sugar, and being asked for his secret to the perfect karahi, which he never once revealed.\n\n" +
      "We are still putting this page together as a family. Please come back soon.",
    visibility: "public",
    isPublished: false,
    portrait: "/demo/portraits/ahmed.svg",
    viewCount: 0,
    daysAgo: 4,
    tributes: [],
  },

  // ------------------------------------------------------------------ bob
  {
    owner: "bob",
    firstName: "Eileen",
    lastName: "O'Connell",
    title: "Nurse, mother of six and queen of the Thursday bingo",
    dateOfBirth: "1925-03-17",
    dateOfPassing: "2012-09-30",
    biography:
      "Eileen was born on St Patrick's Day on a small farm outside Castlebar in County Mayo, which she took as a sign that she was destined for great things. In 1946 she took the boat from Dublin to Liverpool with her sister Bridget to train as a nurse, and stayed for the rest of her life.\n\n" +
      "She worked on the children's wards at the Liverpool Royal Infirmary and then, for many years, as a district nurse around Bootle and Litherland, cycling between patients in all weathers with her bag strapped to the handlebars. Half the street seemed to have been delivered, stitched up or lectured by her at one time or another.\n\n" +
      "She married Jimmy O'Connell, a docker from Scotland Road, in 1950, and together they raised six children in a terraced house on Stanley Road that always seemed to have room for one more at the table. Eileen was a devoted Evertonian, a ferocious cribbage player and a regular at the Thursday bingo, where she was widely suspected of having a system.\n\n" +
      'She did the crossword in pen every morning, sang "The Rose of Mooncoin" at every family party whether asked or not, and kept a Sacred Heart lamp burning in the hall for as long as anyone can remember. She leaves six children, sixteen grandchildren and more great-grandchildren than she could keep count of.',
    visibility: "public",
    isPublished: true,
    portrait: "/demo/portraits/eileen.svg",
    viewCount: 131,
    daysAgo: 360,
    tributes: [
      {
        authorName: "Maureen Kelly",
        authorEmail: null,
        content:
          "Nurse O'Connell came every day for a fortnight when my mam was poorly in 1974 and never once left without making her laugh. Our whole family remembers her.",
        isApproved: true,
        daysAgo: 355,
      },
      {
        authorName: "Sean O'Connell",
        authorEmail: "sean.oconnell@example.com",
        content: 'Nan, the bingo hall isn\'t the same. Nobody shouts "two little ducks" with the right amount of scorn any more.',
        isApproved: true,
        daysAgo: 300,
      },
      {
        authorName: "Father Brendan Hughes",
        authorEmail: "b.hughes@example.com",
        content:
          "Eileen was in the front pew for the nine o'clock Mass for over fifty years and ran our parish tea rota with military precision. A faithful, funny and formidable woman.",
        isApproved: true,
        daysAgo: 210,
      },
    ],
  },
  {
    owner: "bob",
    firstName: "Rajinder",
    lastName: "Bhatti",
    title: "Beloved mother, shopkeeper and heart of the langar kitchen",
    dateOfBirth: "1947-06-05",
    dateOfPassing: "2023-01-19",
    biography:
      "Rajinder was born in a village near Jalandhar in Punjab and came to Leicester in 1969, newly married to Kuldip and carrying, by family legend, more spices than clothes. Her first job was on the machines in a hosiery factory off Belgrave Gate, where she learned English from her workmates and taught them to make proper chai in return.\n\n" +
      "In 1978 she and Kuldip opened a fabric and sari shop on Belgrave Road. For more than thirty years Rajinder ran the front of the shop, remembered every customer's wedding and every baby's name, and could judge a length of silk by eye to the inch. During Diwali the shop window was the brightest on the Golden Mile, and she insisted on doing the lights herself.\n\n" +
      "She volunteered in the langar kitchen at the gurdwara every Sunday for decades and could roll rotis faster than anyone half her age. She loved old Hindi film songs, her rose bushes in the back garden in Rushey Mead, and any excuse to feed people who said they were not hungry.\n\n" +
      "Rajinder leaves her husband Kuldip, her sons Harjit and Manjit, her daughter Simran, and seven grandchildren who will always associate the smell of cardamom with her kitchen.",
    visibility: "public",
    isPublished: true,
    portrait: "/demo/portraits/rajinder.svg",
    viewCount: 156,
    daysAgo: 240,
    tributes: [
      {
        authorName: "Harpreet Sandhu",
        authorEmail: "harpreet.sandhu@example.com",
        content:
          "Auntie Rajinder made my wedding lehenga fit perfectly with two days to spare, and then fed my whole family while they waited. She was generosity itself.",
        isApproved: true,
        daysAgo: 236,
      },
      {
        authorName: "Carol Dixon",
        authorEmail: null,
        content:
          "We worked side by side at the factory in 1970. She taught me to make chai and I taught her to swear in Leicester. Lifelong friends ever since.",
        isApproved: true,
        daysAgo: 200,
      },
      {
        authorName: "Gurdwara seva team",
        authorEmail: null,
        content: "Bibi ji never missed a Sunday in the langar kitchen. We keep her rolling pin on the shelf by the window.",
        isApproved: true,
        daysAgo: 150,
      },
      {
        authorName: "Aman Bhatti",
        authorEmail: "aman.bhatti@example.com",
        content: "Dadi, I put the Diwali lights up in the shop window this year. They were crooked, but I did it the way you showed me.",
        isApproved: false,
        daysAgo: 1,
      },
    ],
  },
  {
    owner: "bob",
    firstName: "Gareth",
    lastName: "Pryce",
    title: "Miner, PE teacher and junior rugby coach",
    dateOfBirth: "1952-11-08",
    dateOfPassing: "2020-05-27",
    biography:
      "Gareth was born in Merthyr Tydfil and went underground at Merthyr Vale colliery at sixteen, like his father and grandfather before him. When the pit closed in 1989 he was thirty-six, with two children and a mortgage, and he surprised everyone, including himself, by going back to college in Pontypridd and qualifying as a PE teacher.\n\n" +
      "He taught at a comprehensive in the valley for twenty years and coached the juniors at Treharris RFC every Sunday morning, rain or more rain. He had a whistle he refused to replace, a tracksuit older than most of his players, and a gift for making the smallest, least confident child feel like they had just scored at the Arms Park.\n\n" +
      "Gareth sang second tenor in the Treharris male voice choir for many years, grew rhubarb that he gave away by the armful whether you wanted it or not, and told the same five terrible jokes at every family gathering. He took Siân to Tenby every August for forty-four years, and swore blind the sea was warm.\n\n" +
      'He leaves Siân, their children Rhys and Carys, four grandchildren, and generations of valley rugby players who still hear him shouting "low and hard" whenever they make a tackle.',
    visibility: "public",
    isPublished: true,
    portrait: "/demo/portraits/gareth.svg",
    viewCount: 73,
    daysAgo: 175,
    tributes: [
      {
        authorName: "Rhodri Evans",
        authorEmail: null,
        content:
          "Mr Pryce picked me for the under-elevens when nobody else would. I went on to captain the seniors, and I still do my warm-up the way he taught us.",
        isApproved: true,
        daysAgo: 170,
      },
      {
        authorName: "Dai Morgan",
        authorEmail: "dai.morgan@example.com",
        content:
          "Worked the same shift as Gareth for twelve years at Merthyr Vale. Best butty you could ask for down the pit, and a better singer than he let on.",
        isApproved: false,
        daysAgo: 5,
      },
    ],
  },
  {
    owner: "bob",
    firstName: "Joan",
    lastName: "Whitfield",
    title: "Mum, knitter and Hessle Road through and through",
    dateOfBirth: "1934-05-19",
    dateOfPassing: "2008-10-02",
    biography:
      "Joan was born in a two-up two-down off Hessle Road in Hull, the daughter of a trawlerman, and she could tell the state of the tide by the smell of the street until the day she died. She left school at fourteen to work in a fish-processing house on the docks, where she met Ken Whitfield, who had come in to fix the ice machine and kept finding reasons to come back.\n\n" +
      "They married in 1955 and moved to a council house in Orchard Park, where they raised three boys. When the boys were at school Joan became a dinner lady at the local primary, and she was the only person in the building the headmaster was afraid of.\n\n" +
      "Joan was a lifelong member of the Women's Institute, a loyal if long-suffering Hull City supporter, and a truly prodigious knitter. Nobody on the street ever had a cold neck, and every new baby within a mile received a matinee jacket whether its parents knew her or not. Summer meant the caravan at Withernsea, fish and chips on the front and a round of crazy golf that she took far too seriously.\n\n" +
      "She leaves her sons, Michael, Stephen and Gary, five grandchildren, and an enormous number of cardigans.",
    visibility: "friends",
    isPublished: true,
    portrait: "/demo/portraits/joan.svg",
    viewCount: 27,
    daysAgo: 130,
    tributes: [
      {
        authorName: "Linda Whitfield",
        authorEmail: "linda.whitfield@example.com",
        content:
          "Joan knitted a blanket for each of our children before they were born and refused to be told whether it was a boy or a girl. We still use them.",
        isApproved: true,
        daysAgo: 125,
      },
      {
        authorName: "Betty from the WI",
        authorEmail: null,
        content: "Nobody could run a tombola like Joan. Our stall has never made as much since.",
        isApproved: true,
        daysAgo: 90,
      },
    ],
  },
  {
    owner: "bob",
    firstName: "Patricia",
    lastName: "Dunmore",
    title: "Librarian, sailor and keeper of cats",
    dateOfBirth: "1945-09-14",
    dateOfPassing: "2025-02-08",
    biography:
      "Pat, as she insisted on being called by everyone except the taxman, was born in Norwich and lived within sight of the cathedral spire for almost her whole life. Her first job was in the packing room at the Colman's mustard works, which she said left her with a permanent fondness for anything yellow and a permanent dislike of the smell of vinegar.\n\n" +
      "At twenty-four she joined the city library service, and she spent the next thirty-five years there, finishing as the reference librarian at the Forum, where she could find the answer to any question, usually before you had finished asking it. She ran the local history group for two decades and knew exactly which Norwich pubs had once been something far more interesting.\n\n" +
      "Pat learned to sail on Hickling Broad in her forties and kept a little wooden dinghy named Marmalade that she sailed every summer weekend until she was seventy-five. She did the cryptic crossword every day, had strong opinions about the correct way to make a pot of tea, and was never without at least two cats, all of them named after Victorian novelists.\n\n" +
      "She leaves her nephew Andrew, her niece Claire, her dear friend of fifty years, Margery, and Trollope and Gaskell, who are being very well looked after.",
    visibility: "private",
    isPublished: true,
    portrait: null,
    viewCount: 6,
    daysAgo: 45,
    tributes: [],
  },

  // ---------------------------------------------------------------- admin
  {
    owner: "admin",
    firstName: "Tomasz",
    lastName: "Nowak",
    title: "Husband, dad, electrician and the best barbecue in Peterborough",
    dateOfBirth: "1979-02-02",
    dateOfPassing: "2024-06-15",
    biography:
      "Tomasz was born in Gdańsk and grew up within earshot of the shipyard cranes. He trained as an electrician, and in 2005, with a toolbox, very little English and a great deal of confidence, he came to Peterborough, where a friend had promised him a week's work. The week turned into nearly twenty years.\n\n" +
      "By 2011 he had his own business, a white van with his name on the side and a reputation for turning up when he said he would, which in the building trade made him something of a legend. He rewired half of the houses in Millfield and most of his friends' kitchens, usually for the price of a beer.\n\n" +
      "He married Kasia in 2008 and they had two children, Zofia and Kuba. Tomasz played left back for a Sunday league team on the Embankment well past the age when his knees agreed with him, fished for carp along the River Nene at dawn, and ran a barbecue every summer weekend that the whole street was invited to. At Christmas Eve he made pierogi with his mother's recipe and insisted on an empty place at the table for the unexpected guest.\n\n" +
      "He was generous, stubborn, loud and kind, and we cannot quite believe he is gone.",
    visibility: "public",
    isPublished: true,
    portrait: null,
    viewCount: 58,
    daysAgo: 110,
    tributes: [
      {
        authorName: "Kevin Ashworth",
        authorEmail: null,
        content: "Tomasz rewired my mum's house when she was ill and wouldn't take a penny for it. He just asked for a cup of tea and a look at her garden.",
        isApproved: true,
        daysAgo: 105,
      },
      {
        authorName: "Paweł Zieliński",
        authorEmail: "pawel.zielinski@example.com",
        content: "Twenty years of fishing the Nene together, and he still caught the biggest carp every time. Spoczywaj w pokoju, przyjacielu.",
        isApproved: true,
        daysAgo: 80,
      },
    ],
  },
  {
    owner: "admin",
    firstName: "Harold",
    lastName: "Pemberton",
    title: "Engineer, pigeon fancier and Grandad to everyone on the allotments",
    dateOfBirth: null,
    dateOfPassing: "1998-01-22",
    biography:
      "Harold was born in Salford in the mid-1920s. Nobody was ever quite sure of the exact date, because his birth certificate was lost in the Blitz and he cheerfully refused to choose one, so the family celebrated his birthday on the first day of the cricket season instead.\n\n" +
      "He did his National Service with the Royal Engineers and then spent nearly forty years as a fitter at the big electrical works at Trafford Park, where he was known for his steady hands, his flask of oxtail soup and his habit of whistling Gilbert and Sullivan while he worked. He could mend anything with a motor in it and most things without.\n\n" +
      "Harold married Edna in 1951 and they lived for forty-five years in a terraced house in Eccles, which was always full of the smell of pipe tobacco and Eccles cakes. He kept racing pigeons in a loft at the bottom of the garden, and every Sunday walked down to his allotment off Barton Lane, where he grew leeks for the show, gave away more runner beans than he ate, and taught half the grandchildren in the neighbourhood how to tell a seedling from a weed.\n\n" +
      "He leaves his daughters, Barbara and Christine, and five grandchildren who still cannot eat an Eccles cake without thinking of him.",
    visibility: "friends",
    isPublished: true,
    portrait: "/demo/portraits/harold.svg",
    viewCount: 34,
    daysAgo: 260,
    tributes: [
      {
        authorName: "Christine Pemberton",
        authorEmail: "christine.pemberton@example.com",
        content:
          "Dad, the first day of the cricket season came round again and we raised a cup of tea to you at Old Trafford. Edna would have said we were daft.",
        isApproved: true,
        daysAgo: 180,
      },
    ],
  },
  {
    owner: "admin",
    firstName: "Winifred",
    lastName: "Hale",
    title: "Landlady, watercolourist and year-round sea swimmer",
    dateOfBirth: "1929-01-07",
    dateOfPassing: "2003-06-14",
    biography:
      "Winifred, Win to everyone but her bank manager, was born in Penzance and ran a guest house on the hill above Porthmeor Beach in St Ives for more than thirty years. Her breakfasts were famous, her house rules were pinned to the back of every bedroom door, and guests came back summer after summer, eventually bringing their own children and then their grandchildren.\n\n" +
      "In the quiet months she painted. Her small watercolours of the harbour, the gulls and the light over Godrevy hung in the hallway, the dining room and a fair few homes across the country, because she gave them to favourite guests as leaving presents. She never signed them with more than a tiny W.\n\n" +
      "Win swam in the sea every morning from April to October, and on Boxing Day and New Year's Day regardless of the weather, in a flowered rubber cap she had owned since 1962. She kept a logbook of the water temperature for twenty years.\n\n" +
      "She married George Hale, a fisherman, in 1950, and was widowed young. She leaves her son Robert, her granddaughter Jenna, and a harbour full of people who still wave at the house.",
    visibility: "private",
    isPublished: false,
    portrait: "/demo/portraits/winifred.svg",
    viewCount: 0,
    daysAgo: 9,
    tributes: [],
  },
];

export const demoProducts: DemoProduct[] = [
  // Frames
  {
    name: "Engraved Oak Photo Frame",
    description:
      "Solid English oak frame for a 6 x 4 inch photograph, laser-engraved along the bottom edge with a name and dates of your choosing. Supplied with glass and a free-standing easel back.",
    price: 3499,
    category: "Frames",
    stockQuantity: 24,
    imageUrl: "/demo/products/engraved-oak-photo-frame.svg",
    isActive: true,
  },
  {
    name: "Double Aperture Silver Memorial Frame",
    description:
      "Silver-plated hinged frame holding two 5 x 7 inch photographs side by side, ideal for a wedding picture alongside a favourite later portrait. Presented in a grey gift box.",
    price: 4299,
    category: "Frames",
    stockQuantity: 15,
    imageUrl: "/demo/products/double-aperture-silver-frame.svg",
    isActive: true,
  },
  // Candles
  {
    name: "Soy Memorial Candle – Lavender & Cedarwood",
    description:
      "Hand-poured soy wax candle in a reusable amber glass jar, with a personalised remembrance label. Around 40 hours of clean burn time. Poured in small batches in Shropshire.",
    price: 1899,
    category: "Candles",
    stockQuantity: 48,
    imageUrl: "/demo/products/soy-memorial-candle.svg",
    isActive: true,
  },
  {
    name: "Remembrance Lantern with LED Candle",
    description:
      "Black metal lantern with glass panes and a flickering, battery-powered LED candle on a six-hour timer. Safe to leave lit beside a photograph or at a graveside.",
    price: 2499,
    category: "Candles",
    stockQuantity: 9,
    imageUrl: "/demo/products/remembrance-lantern.svg",
    isActive: false,
  },
  // Garden
  {
    name: "Solid Brass Memorial Bench Plaque",
    description:
      "Engraved solid brass plaque, 150 x 50 mm, with up to four lines of inscription and a clear lacquer finish to keep it bright outdoors. Supplied with brass screws for fixing to a bench.",
    price: 6999,
    category: "Garden",
    stockQuantity: 20,
    imageUrl: "/demo/products/brass-bench-plaque.svg",
    isActive: true,
  },
  {
    name: "Engraved Slate Garden Stake",
    description:
      "Welsh slate marker on a 30 cm galvanised stake, hand-engraved with a name and a short message. Frost-proof and made to stand among the flowers for years.",
    price: 2899,
    category: "Garden",
    stockQuantity: 32,
    imageUrl: "/demo/products/slate-garden-stake.svg",
    isActive: true,
  },
  // Books
  {
    name: "Personalised Memory Book",
    description:
      "Linen-bound hardback memory book with 60 guided pages for photographs, stories and family recollections. The cover is blind-embossed with the name of the person you are remembering.",
    price: 2999,
    category: "Books",
    stockQuantity: 27,
    imageUrl: "/demo/products/personalised-memory-book.svg",
    isActive: true,
  },
  {
    name: "Funeral Condolence Guest Book",
    description:
      "Cloth-bound guest book with 100 ruled pages for visitors to leave names and messages at a funeral, wake or celebration of life. Includes a matching ribbon marker.",
    price: 2299,
    category: "Books",
    stockQuantity: 18,
    imageUrl: "/demo/products/condolence-guest-book.svg",
    isActive: true,
  },
  // Jewelry
  {
    name: "Sterling Silver Cremation Ash Heart Pendant",
    description:
      "Hallmarked sterling silver heart pendant with a small sealed chamber for a pinch of ashes, on an 18 inch chain. Includes a filling kit and step-by-step instructions.",
    price: 8999,
    category: "Jewelry",
    stockQuantity: 11,
    imageUrl: "/demo/products/cremation-ash-pendant.svg",
    isActive: true,
  },
  {
    name: "Birthstone Memory Bracelet",
    description:
      "Adjustable sterling silver bracelet with a single birthstone-coloured crystal and an engraved disc. A gentle, everyday way to keep someone close.",
    price: 4599,
    category: "Jewelry",
    stockQuantity: 22,
    imageUrl: "/demo/products/birthstone-memory-bracelet.svg",
    isActive: true,
  },
  // Cards
  {
    name: "Sympathy Card Pack (6)",
    description: "Six blank sympathy cards with watercolour wildflower designs and recycled kraft envelopes. Printed in Yorkshire on FSC-certified card.",
    price: 899,
    category: "Cards",
    stockQuantity: 60,
    imageUrl: "/demo/products/sympathy-card-pack.svg",
    isActive: true,
  },
  {
    name: "Forget-Me-Not Seed Cards (10)",
    description:
      "Ten small plantable cards made from recycled paper embedded with forget-me-not seeds. Perfect to hand out at a funeral so that guests can grow something in memory.",
    price: 599,
    category: "Cards",
    stockQuantity: 55,
    imageUrl: "/demo/products/forget-me-not-seed-cards.svg",
    isActive: true,
  },
  // Urns
  {
    name: "Biodegradable Sea Scattering Urn",
    description:
      "Shell-shaped urn made from compressed sand and natural binders that floats briefly before gently sinking and dissolving within a few hours. Suitable for a burial at sea or in a lake.",
    price: 7999,
    category: "Urns",
    stockQuantity: 14,
    imageUrl: "/demo/products/biodegradable-sea-urn.svg",
    isActive: true,
  },
  {
    name: "Hand-Turned Oak Keepsake Casket",
    description:
      "Small oak casket turned by hand in Herefordshire, with a secure screw-fit lid and an optional engraved brass plate. Holds a portion of ashes or cherished keepsakes.",
    price: 12999,
    category: "Urns",
    stockQuantity: 0,
    imageUrl: "/demo/products/oak-keepsake-casket.svg",
    isActive: true,
  },
  // Textiles
  {
    name: "Memory Quilt from Clothing",
    description:
      "A single-bed patchwork quilt hand-sewn from up to thirty of your loved one's shirts, jumpers and dresses, backed with soft cotton. Made to order in our Lancashire workshop in around eight weeks.",
    price: 24999,
    category: "Textiles",
    stockQuantity: 5,
    imageUrl: "/demo/products/memory-quilt.svg",
    isActive: true,
  },
  {
    name: "Memory Cushion from a Shirt",
    description:
      "A 40 cm square cushion made from a favourite shirt, keeping the button placket and breast pocket on the front. Supplied with a feather-and-down inner.",
    price: 5999,
    category: "Textiles",
    stockQuantity: 12,
    imageUrl: "/demo/products/memory-cushion.svg",
    isActive: true,
  },
];

export const demoNews: DemoNews[] = [
  {
    title: "Kent village restores wartime bench in memory of its oldest resident",
    description:
      "Volunteers in a village near Faversham have restored the oak bench that Doris Appleby, who died aged 102, sat on every afternoon for sixty years, adding a new brass plaque paid for by a door-to-door collection.",
    url: "https://everlight.uk/journal/kent-village-restores-bench-doris-appleby",
    urlToImage: "/demo/news/kent-village-restores-bench-doris-appleby.svg",
    publishedAt: "2026-10-06T09:30:00.000Z",
    source: "Everlight Journal",
    personName: "Doris Appleby",
  },
  {
    title: "Nottingham bereavement café marks five years of tea and conversation",
    description:
      "What began as a handful of chairs in a church hall in Sneinton now welcomes more than forty people a fortnight. Founder Linda Cartwright, who started the café after losing her husband, explains why cake and company matter.",
    url: "https://everlight.uk/journal/nottingham-bereavement-cafe-five-years",
    urlToImage: null,
    publishedAt: "2026-10-19T12:00:00.000Z",
    source: "Everlight Journal",
    personName: "Linda Cartwright",
  },
  {
    title: "Ceredigion woodland burial ground plants its thousandth memorial tree",
    description:
      "A native oak planted for retired hill farmer Owen Llewelyn brings the woodland burial site near Aberaeron to one thousand trees, a decade after the first sapling went into the ground.",
    url: "https://everlight.uk/journal/ceredigion-woodland-thousandth-tree",
    urlToImage: "/demo/news/ceredigion-woodland-thousandth-tree.svg",
    publishedAt: "2026-10-28T08:15:00.000Z",
    source: "Remembrance Weekly",
    personName: "Owen Llewelyn",
  },
  {
    title: "Glasgow community choir sings founder's favourite songs at Remembrance concert",
    description:
      "Members of a Govan community choir dedicated their annual Remembrance Sunday concert to Morag Buchanan, the retired music teacher who founded the group in 1994 with six singers and a borrowed piano.",
    url: "https://everlight.uk/journal/glasgow-choir-remembrance-concert-morag-buchanan",
    urlToImage: null,
    publishedAt: "2026-11-09T17:45:00.000Z",
    source: "Everlight Journal",
    personName: "Morag Buchanan",
  },
  {
    title: "Bristol memory quilt stitched from two hundred shirts goes on display",
    description:
      "A quilt made from shirts donated by families across Bristol, begun by the late seamstress Beryl Ashdown and finished by her sewing circle, is on show at a city library throughout November.",
    url: "https://everlight.uk/journal/bristol-memory-quilt-beryl-ashdown",
    urlToImage: null,
    publishedAt: "2026-11-21T10:00:00.000Z",
    source: "The Remembrance Review",
    personName: "Beryl Ashdown",
  },
];
