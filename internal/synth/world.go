package synth

import "fmt"

// The world of the agent model: part of Zork I's map as Jericho presents it
// (room names, descriptions in verbose mode, exits by direction), the
// walkthrough the agent follows with Zork I's point values, the puzzles it
// gets stuck on, and the ways it dies.
//
// The Z-machine object numbers are illustrative: stable and unique, like
// Jericho's, but not checked against zork1.z5 (West of House 180, North of
// House 81 and Behind House 79 are the ones the fixtures already use). Room
// texts are abridged from the game; point values follow Zork I's tables
// (treasure taken / treasure in the case, first entry to the Kitchen 10, the
// Cellar 25, the East-West Passage 5, the Treasure Room 25; a death costs 10).

// place is a room of the world.
type place struct {
	key    string
	id     int
	name   string
	desc   string // what verbose mode prints on entering, after the name
	items  []item // lines after desc
	dark   bool   // underground: where grues live
	exits  []exit
	things []thing // what can be examined here
}

// exit leads from a room by a direction; gate is the walkthrough step that
// must be done before the way is open ("" for always).
type exit struct {
	dir, to, gate string
}

// item is a line of a room's text about an object; it is gone once the
// walkthrough step gone is done (the object was taken or left).
type item struct {
	text, gone string
}

// thing is an object the agent can examine, and what the game answers.
type thing struct {
	name, text string
}

var places = []place{
	// Above ground.
	{key: "westOfHouse", id: 180, name: "West of House",
		desc:   "You are standing in an open field west of a white house, with a boarded front door.",
		items:  []item{{"There is a small mailbox here.", ""}},
		exits:  []exit{{"north", "northOfHouse", ""}, {"south", "southOfHouse", ""}, {"west", "forestWest", ""}},
		things: []thing{{"mailbox", "The small mailbox is closed."}, {"door", "The door is boarded and you can't remove the boards."}, {"house", "The house is a beautiful colonial house which is painted white. It is clear that the owners must have been extremely wealthy."}}},
	{key: "northOfHouse", id: 81, name: "North of House",
		desc:   "You are facing the north side of a white house. There is no door here, and all the windows are boarded up. To the north a narrow path winds through the trees.",
		exits:  []exit{{"west", "westOfHouse", ""}, {"east", "behindHouse", ""}, {"north", "forestPath", ""}},
		things: []thing{{"windows", "The windows are all boarded."}, {"path", "The path winds north through the trees."}}},
	{key: "southOfHouse", id: 80, name: "South of House",
		desc:   "You are facing the south side of a white house. There is no door here, and all the windows are boarded.",
		exits:  []exit{{"west", "westOfHouse", ""}, {"east", "behindHouse", ""}, {"south", "forestSouth", ""}},
		things: []thing{{"windows", "The windows are all boarded."}}},
	{key: "behindHouse", id: 79, name: "Behind House",
		desc:   "You are behind the white house. A path leads into the forest to the east. In one corner of the house there is a small window which is slightly ajar.",
		exits:  []exit{{"north", "northOfHouse", ""}, {"south", "southOfHouse", ""}, {"east", "clearingEast", ""}, {"west", "kitchen", "kitchen"}},
		things: []thing{{"window", "The window is slightly ajar, but not enough to allow entry."}}},
	{key: "kitchen", id: 191, name: "Kitchen",
		desc:   "You are in the kitchen of the white house. A table seems to have been used recently for the preparation of food. A passage leads to the west and a dark staircase can be seen leading upward. A dark chimney leads down and to the east is a small window which is open.",
		items:  []item{{"On the table is an elongated brown sack, smelling of hot peppers.", ""}, {"A bottle is sitting on the table.", ""}},
		exits:  []exit{{"east", "behindHouse", ""}, {"west", "livingRoom", ""}, {"up", "attic", ""}},
		things: []thing{{"sack", "The brown sack is closed."}, {"bottle", "The glass bottle contains:\n  A quantity of water"}, {"chimney", "The chimney leads downward, and looks climbable."}}},
	{key: "attic", id: 192, name: "Attic", dark: true,
		desc:   "This is the attic. The only exit is a stairway leading down.",
		items:  []item{{"A large coil of rope is lying in the corner.", "rope"}, {"On a table is a nasty-looking knife.", ""}},
		exits:  []exit{{"down", "kitchen", ""}},
		things: []thing{{"rope", "There's nothing special about the rope."}, {"knife", "There's nothing special about the nasty knife."}}},
	{key: "livingRoom", id: 193, name: "Living Room",
		desc:   "You are in the living room. There is a doorway to the east, a wooden door with strange gothic lettering to the west, which appears to be nailed shut, a trophy case, and a large oriental rug in the center of the room.",
		items:  []item{{"Above the trophy case hangs an elvish sword of great antiquity.", "lantern"}, {"A battery-powered brass lantern is on the trophy case.", "lantern"}},
		exits:  []exit{{"east", "kitchen", ""}, {"down", "cellar", "cellar"}, {"west", "strangePassage", "cyclops"}},
		things: []thing{{"trophy case", "The trophy case is empty."}, {"rug", "There's nothing special about the carpet."}, {"wooden door", "The engravings translate to \"This space intentionally left blank.\""}}},
	{key: "forestPath", id: 76, name: "Forest Path",
		desc:   "This is a path winding through a dimly lit forest. The path heads north-south here. One particularly large tree with some low branches stands at the edge of the path.",
		exits:  []exit{{"south", "northOfHouse", ""}, {"north", "clearingNorth", ""}, {"up", "upATree", ""}, {"east", "forestEast", ""}, {"west", "forestWest", ""}},
		things: []thing{{"tree", "The tree has low branches that look easy to climb."}}},
	{key: "upATree", id: 77, name: "Up a Tree",
		desc:   "You are about 10 feet above the ground nestled among some large branches. The nearest branch above you is above your reach.",
		items:  []item{{"Beside you on the branch is a small bird's nest.", ""}, {"In the bird's nest is a large egg encrusted with precious jewels, apparently scavenged by a childless songbird.", "egg"}},
		exits:  []exit{{"down", "forestPath", ""}},
		things: []thing{{"nest", "In the bird's nest is a large egg encrusted with precious jewels."}, {"egg", "The jewel-encrusted egg is closed."}}},
	{key: "clearingNorth", id: 78, name: "Clearing",
		desc:   "You are in a clearing, with a forest surrounding you on all sides. A path leads south.",
		items:  []item{{"On the ground is a pile of leaves.", ""}},
		exits:  []exit{{"south", "forestPath", ""}, {"east", "forestEast", ""}, {"west", "forestWest", ""}},
		things: []thing{{"leaves", "There's nothing special about the pile of leaves."}}},
	{key: "forestWest", id: 71, name: "Forest",
		desc:  "This is a forest, with trees in all directions. To the east, there appears to be sunlight.",
		exits: []exit{{"east", "forestPath", ""}, {"north", "clearingNorth", ""}, {"south", "forestSouth", ""}}},
	{key: "forestEast", id: 72, name: "Forest",
		desc:  "This is a dimly lit forest, with large trees all around.",
		exits: []exit{{"west", "forestPath", ""}, {"south", "clearingEast", ""}}},
	{key: "forestSouth", id: 73, name: "Forest",
		desc:  "This is a dimly lit forest, with large trees all around.",
		exits: []exit{{"north", "clearingEast", ""}, {"west", "forestWest", ""}, {"northwest", "southOfHouse", ""}}},
	{key: "clearingEast", id: 74, name: "Clearing",
		desc:  "You are in a small clearing in a well marked forest path that extends to the east and west.",
		exits: []exit{{"west", "behindHouse", ""}, {"east", "canyonView", ""}, {"north", "forestEast", ""}, {"south", "forestSouth", ""}}},
	{key: "canyonView", id: 182, name: "Canyon View",
		desc:   "You are at the top of the Great Canyon on its west wall. From here there is a marvelous view of the canyon and parts of the Frigid River upstream. A path leads northwest. It is possible to climb down into the canyon from here.",
		exits:  []exit{{"northwest", "clearingEast", ""}, {"down", "rockyLedge", ""}},
		things: []thing{{"canyon", "The canyon walls are steep, but it looks possible to climb down."}}},
	{key: "rockyLedge", id: 183, name: "Rocky Ledge",
		desc:  "You are on a ledge about halfway up the wall of the river canyon. Below you is the canyon bottom. Above you is more cliff, which appears climbable.",
		exits: []exit{{"up", "canyonView", ""}, {"down", "canyonBottom", ""}}},
	{key: "canyonBottom", id: 184, name: "Canyon Bottom",
		desc:  "You are beneath the walls of the river canyon which may be climbable here. The lesser part of the runoff of Aragain Falls flows by below. To the north is a narrow path.",
		exits: []exit{{"up", "rockyLedge", ""}, {"north", "endOfRainbow", ""}}},
	{key: "endOfRainbow", id: 185, name: "End of Rainbow",
		desc:   "You are on a small, rocky beach on the continuation of the Frigid River past the Falls. The beach is narrow due to the presence of the White Cliffs. A rainbow crosses over the falls to the east and a narrow path continues to the southwest.",
		exits:  []exit{{"southwest", "canyonBottom", ""}},
		things: []thing{{"rainbow", "The rainbow shimmers over the falls. It does not look solid."}}},

	// Underground.
	{key: "cellar", id: 194, name: "Cellar", dark: true,
		desc:   "You are in a dark and damp cellar with a narrow passageway leading north, and a crawlway to the south. On the west is the bottom of a steep metal ramp which is unclimbable.",
		exits:  []exit{{"north", "trollRoom", ""}, {"south", "eastOfChasm", ""}},
		things: []thing{{"ramp", "The ramp is too steep and slippery to climb."}, {"trap door", "The trap door is closed."}}},
	{key: "trollRoom", id: 205, name: "The Troll Room", dark: true,
		desc:   "This is a small room with passages to the east and south and a forbidding hole leading west. Bloodstains and deep scratches (perhaps made by an axe) mar the walls.",
		items:  []item{{"A nasty-looking troll, brandishing a bloody axe, blocks all passages out of the room.", "troll"}},
		exits:  []exit{{"south", "cellar", ""}, {"east", "ewPassage", "troll"}, {"west", "maze1", "troll"}},
		things: []thing{{"troll", "A nasty-looking troll, brandishing a bloody axe, blocks all passages out of the room."}}},
	{key: "eastOfChasm", id: 195, name: "East of Chasm", dark: true,
		desc:   "You are on the east edge of a chasm, the bottom of which cannot be seen. A narrow passage goes north, and the path you are on continues to the east.",
		exits:  []exit{{"north", "cellar", ""}, {"east", "gallery", ""}},
		things: []thing{{"chasm", "It's too deep to see the bottom."}}},
	{key: "gallery", id: 196, name: "Gallery",
		desc:   "This is an art gallery. Most of the paintings have been stolen by vandals with exceptional taste. The vandals left through either the north or west exits.",
		items:  []item{{"Fortunately, there is still one chance for you to be a vandal, for on the far wall is a painting of unparalleled beauty.", "painting"}},
		exits:  []exit{{"west", "eastOfChasm", ""}, {"north", "studio", ""}},
		things: []thing{{"painting", "A painting by a neglected genius."}}},
	{key: "studio", id: 197, name: "Studio",
		desc:   "This appears to have been an artist's studio. The walls and floors are splattered with paints of 69 different colors. At the south end of the room is an open door. A dark and narrow chimney leads up from a fireplace.",
		items:  []item{{"Loosely attached to a wall is a small piece of paper.", ""}},
		exits:  []exit{{"south", "gallery", ""}, {"up", "kitchen", ""}},
		things: []thing{{"paper", "Congratulations! You are the privileged owner of ZORK I: The Great Underground Empire."}, {"chimney", "The chimney is narrow; you might fit if you are not carrying much."}}},
	{key: "ewPassage", id: 206, name: "East-West Passage", dark: true,
		desc:  "This is a narrow east-west passageway. There is a narrow stairway leading down at the north end of the room.",
		exits: []exit{{"west", "trollRoom", ""}, {"east", "roundRoom", ""}, {"north", "chasm", ""}}},
	{key: "roundRoom", id: 207, name: "Round Room", dark: true,
		desc:  "This is a circular stone room with passages in all directions. Several of them have unfortunately been blocked by cave-ins.",
		exits: []exit{{"west", "ewPassage", ""}, {"east", "loudRoom", ""}, {"south", "narrowPassage", ""}, {"southeast", "engravingsCave", ""}, {"north", "nsPassage", ""}}},
	{key: "loudRoom", id: 212, name: "Loud Room", dark: true,
		desc:   "This is a large room with a ceiling which cannot be detected from the ground. There is a narrow passage from east to west and a stone stairway leading upward. The room is deafeningly loud with an undetermined rushing sound.",
		items:  []item{{"On the ground is a large platinum bar.", "bar"}},
		exits:  []exit{{"west", "roundRoom", ""}, {"east", "dampCave", ""}, {"up", "deepCanyon", ""}},
		things: []thing{{"bar", "The platinum bar is heavy and gleams in the lamplight."}}},
	{key: "dampCave", id: 213, name: "Damp Cave", dark: true,
		desc:  "This cave has exits to the west and east, and narrows to a crack toward the south. The earth is particularly damp here.",
		exits: []exit{{"west", "loudRoom", ""}}},
	{key: "deepCanyon", id: 214, name: "Deep Canyon", dark: true,
		desc:  "You are on the south edge of a deep canyon. Passages lead off to the east, northwest and southwest. A stairway leads down. You can hear the sound of flowing water from below.",
		exits: []exit{{"down", "loudRoom", ""}, {"east", "dam", ""}, {"northwest", "reservoirSouth", ""}, {"southwest", "nsPassage", ""}}},
	{key: "nsPassage", id: 208, name: "North-South Passage", dark: true,
		desc:  "This is a high north-south passage, which forks to the northeast.",
		exits: []exit{{"south", "roundRoom", ""}, {"north", "chasm", ""}, {"northeast", "deepCanyon", ""}}},
	{key: "chasm", id: 209, name: "Chasm", dark: true,
		desc:  "A chasm runs southwest to northeast and the path follows it. You are on the south side of the chasm, where a crack opens into a passage.",
		exits: []exit{{"northeast", "reservoirSouth", ""}, {"southwest", "ewPassage", ""}, {"south", "nsPassage", ""}}},
	{key: "dam", id: 215, name: "Dam",
		desc:   "You are standing on the top of the Flood Control Dam #3, which was quite a tourist attraction in times far distant. There are paths to the north, south, and west, and a scramble down.",
		items:  []item{{"There is a control panel here, on which a large metal bolt is mounted. Directly above the bolt is a small green plastic bubble.", ""}},
		exits:  []exit{{"north", "damLobby", ""}, {"south", "deepCanyon", ""}, {"west", "reservoirSouth", ""}, {"down", "damBase", ""}},
		things: []thing{{"bolt", "The bolt is large and rusty; it would take a tool to turn it."}, {"bubble", "The green bubble is dark."}, {"control panel", "There is a control panel here, on which a large metal bolt is mounted."}}},
	{key: "damLobby", id: 216, name: "Dam Lobby",
		desc:   "This room appears to have been the waiting room for groups touring the dam. There are open doorways here to the north and east marked \"Private\", and there is a path leading south over the top of the dam.",
		items:  []item{{"Some guidebooks entitled \"Flood Control Dam #3\" are on the reception desk.", ""}},
		exits:  []exit{{"south", "dam", ""}, {"north", "maintenance", ""}},
		things: []thing{{"guidebook", "\"Flood Control Dam #3\n\nFCD#3 was constructed in year 783 of the Great Underground Empire to harness the mighty Frigid River.\""}, {"desk", "The reception desk is bare except for the guidebooks."}}},
	{key: "maintenance", id: 217, name: "Maintenance Room", dark: true,
		desc:   "This is what appears to have been the maintenance room for Flood Control Dam #3. On the wall in front of you is a group of buttons colored blue, yellow, brown, and red. There are doorways to the west and south.",
		items:  []item{{"There is a wrench here.", "tools"}, {"There is a screwdriver here.", "tools"}},
		exits:  []exit{{"south", "damLobby", ""}, {"west", "damLobby", ""}},
		things: []thing{{"buttons", "There are four buttons: blue, yellow, brown and red."}, {"tool chests", "The chests are all empty."}}},
	{key: "damBase", id: 218, name: "Dam Base",
		desc:  "You are at the base of Flood Control Dam #3, which looms above you and to the north. The river Frigid is flowing by here.",
		items: []item{{"There is a folded pile of plastic here which has a small valve attached.", ""}},
		exits: []exit{{"north", "dam", ""}, {"up", "dam", ""}}},
	{key: "reservoirSouth", id: 210, name: "Reservoir South", dark: true,
		desc:   "You are in a long room on the south shore of a large lake, far too deep and wide for crossing. There is a path along the stream to the east or west, a steep pathway climbing southwest along the edge of a chasm, and a path leading into a canyon to the southeast.",
		exits:  []exit{{"east", "dam", ""}, {"southwest", "chasm", ""}, {"southeast", "deepCanyon", ""}, {"north", "reservoir", "dam"}},
		things: []thing{{"lake", "The lake is far too deep and wide for crossing."}}},
	{key: "reservoir", id: 211, name: "Reservoir", dark: true,
		desc:  "You are on what used to be a large lake, but which is now a large mud pile. There are \"shores\" to the north and south.",
		items: []item{{"Lying half buried in the mud is an old trunk, bulging with jewels.", "trunk"}},
		exits: []exit{{"south", "reservoirSouth", ""}, {"north", "reservoirNorth", ""}}},
	{key: "reservoirNorth", id: 219, name: "Reservoir North", dark: true,
		desc:  "You are in a large cavernous room, north of a large lake. There is a slimy stairway leaving the room to the north.",
		exits: []exit{{"south", "reservoir", ""}, {"north", "atlantis", ""}}},
	{key: "atlantis", id: 220, name: "Atlantis Room", dark: true,
		desc:  "This is an ancient room, long under water. There is an exit to the south and a staircase leading up.",
		items: []item{{"On the shore lies Poseidon's own crystal trident.", "trident"}},
		exits: []exit{{"south", "reservoirNorth", ""}}},
	{key: "narrowPassage", id: 221, name: "Narrow Passage", dark: true,
		desc:  "This is a long and narrow corridor where a long north-south passageway briefly narrows even further.",
		exits: []exit{{"north", "roundRoom", ""}, {"south", "mirrorRoom", ""}}},
	{key: "mirrorRoom", id: 222, name: "Mirror Room", dark: true,
		desc:   "You are in a large square room with tall ceilings. On the south wall is an enormous mirror which fills the entire wall. There are exits on the other three sides of the room.",
		exits:  []exit{{"north", "narrowPassage", ""}, {"west", "windingPassage", ""}},
		things: []thing{{"mirror", "There is an ugly person staring back at you."}}},
	{key: "windingPassage", id: 223, name: "Winding Passage", dark: true,
		desc:  "This is a winding passage. It seems that there are only exits on the east and north.",
		exits: []exit{{"east", "mirrorRoom", ""}}},
	{key: "engravingsCave", id: 224, name: "Engravings Cave", dark: true,
		desc:   "You have entered a low cave with passages leading northwest and east.",
		items:  []item{{"There are old engravings on the walls here.", ""}},
		exits:  []exit{{"northwest", "roundRoom", ""}, {"east", "domeRoom", ""}},
		things: []thing{{"engravings", "The engravings were incised in the living rock of the cave wall by an unknown hand. They depict, in symbolic form, the beliefs of the ancient Zorkers."}}},
	{key: "domeRoom", id: 225, name: "Dome Room", dark: true,
		desc:   "You are at the periphery of a large dome, which forms the ceiling of another room below. Protecting you from a precipitous drop is a wooden railing which circles the dome.",
		exits:  []exit{{"west", "engravingsCave", ""}, {"down", "torchRoom", "dome"}},
		things: []thing{{"railing", "The railing is sturdy and circles the dome."}}},
	{key: "torchRoom", id: 226, name: "Torch Room", dark: true,
		desc:  "This is a large room with a prominent doorway leading to a down staircase. Above you is a large dome. Up around the edge of the dome (20 feet up) is a wooden railing. In the center of the room sits a white marble pedestal.",
		items: []item{{"Sitting on the pedestal is a flaming torch, made of ivory.", "torch"}},
		exits: []exit{{"up", "domeRoom", ""}, {"down", "temple", ""}}},
	{key: "temple", id: 227, name: "Temple",
		desc:   "This is the north end of a large temple. On the east wall is an ancient inscription, probably a prayer in a long-forgotten language. Below the prayer is a staircase leading down. The west wall is solid granite.",
		items:  []item{{"There is a brass bell here.", ""}},
		exits:  []exit{{"up", "torchRoom", ""}, {"east", "egyptianRoom", ""}, {"south", "altar", ""}},
		things: []thing{{"inscription", "The engravings translate to \"This space intentionally left blank.\""}, {"bell", "There's nothing special about the brass bell."}}},
	{key: "egyptianRoom", id: 228, name: "Egyptian Room",
		desc:  "This is a room which looks like an Egyptian tomb. There is an ascending staircase to the west.",
		items: []item{{"The solid-gold coffin used for the burial of Ramses II is here.", "coffin"}},
		exits: []exit{{"west", "temple", ""}}},
	{key: "altar", id: 229, name: "Altar",
		desc:   "This is the south end of a large temple. In front of you is what appears to be an altar. In one corner is a small hole in the floor which leads into darkness.",
		items:  []item{{"On the two ends of the altar are burning candles.", ""}, {"On the altar is a large black book, open to page 569.", ""}},
		exits:  []exit{{"north", "temple", ""}},
		things: []thing{{"book", "Commandment #12592\n\nOh ye who go about saying unto each:  \"Hello sailor\":\nDost thou know the magnitude of thy sin before the gods?"}}},
	{key: "maze1", id: 160, name: "Maze", dark: true,
		desc:  "This is part of a maze of twisty little passages, all alike.",
		exits: []exit{{"east", "trollRoom", ""}, {"south", "maze2", ""}, {"west", "maze3", ""}}},
	{key: "maze2", id: 161, name: "Maze", dark: true,
		desc:  "This is part of a maze of twisty little passages, all alike.",
		exits: []exit{{"north", "maze1", ""}, {"east", "maze3", ""}, {"south", "deadEnd", ""}}},
	{key: "maze3", id: 162, name: "Maze", dark: true,
		desc:  "This is part of a maze of twisty little passages, all alike.",
		exits: []exit{{"west", "maze1", ""}, {"north", "maze2", ""}, {"up", "mazeSkeleton", ""}}},
	{key: "mazeSkeleton", id: 163, name: "Maze", dark: true,
		desc:   "This is part of a maze of twisty little passages, all alike. A skeleton, probably the remains of a luckless adventurer, lies here.",
		items:  []item{{"An old leather bag, bulging with coins, is here.", "coins"}},
		exits:  []exit{{"down", "maze3", ""}, {"southwest", "cyclopsRoom", ""}},
		things: []thing{{"skeleton", "A skeleton, probably the remains of a luckless adventurer."}}},
	{key: "deadEnd", id: 164, name: "Dead End", dark: true,
		desc:  "You have come to a dead end in the maze.",
		exits: []exit{{"north", "maze2", ""}}},
	{key: "cyclopsRoom", id: 165, name: "Cyclops Room", dark: true,
		desc:   "This room has an exit on the northwest, and a staircase leading up.",
		items:  []item{{"A cyclops, who looks prepared to eat horses (much less mere adventurers), blocks the staircase.", "cyclops"}},
		exits:  []exit{{"northwest", "mazeSkeleton", ""}, {"up", "treasureRoom", "treasureRoom"}, {"east", "strangePassage", "cyclops"}},
		things: []thing{{"cyclops", "A hungry cyclops is standing at the foot of the stairs."}}},
	{key: "strangePassage", id: 166, name: "Strange Passage", dark: true,
		desc:  "This is a long passage. To the west is one entrance. On the east there is an old wooden door, with a large opening in it (about cyclops sized).",
		exits: []exit{{"west", "cyclopsRoom", ""}, {"east", "livingRoom", ""}}},
	{key: "treasureRoom", id: 167, name: "Treasure Room", dark: true,
		desc:  "This is a large room, whose east wall is solid granite. A number of discarded bags, which crumble at your touch, are scattered about on the floor. There is an exit down a staircase.",
		items: []item{{"There is a silver chalice, intricately engraved, here.", "chalice"}},
		exits: []exit{{"down", "cyclopsRoom", ""}}},
}

// act is one command of the walkthrough and what it does.
type act struct {
	action   string
	response string
	points   int
	to       string // the room the action leads to; "" stays
	take     string // an item that goes into the inventory
	drop     string // an item that leaves it (into the trophy case)
	combat   bool
}

// step is a stage of the walkthrough: commands done in one room. The agent
// walks there, then does them in order; attempts are what it tries in vain
// while stuck on the step (the puzzle it cannot solve).
type step struct {
	key       string
	room      string
	acts      []act
	objective string // how the objective manager words the step
	attempts  []act
}

var walkthrough = []step{
	{key: "leaflet", room: "westOfHouse", objective: "Open the mailbox at West of House and read the leaflet",
		acts: []act{{action: "open mailbox", response: "Opening the small mailbox reveals a leaflet."},
			{action: "read leaflet", response: "(Taken)\n\"WELCOME TO ZORK!\n\nZORK is a game of adventure, danger, and low cunning. In it you will explore some of the most amazing territory ever seen by mortals. No computer should be without one!\"", take: "leaflet"}},
		attempts: []act{{action: "open door", response: "The door is boarded and you can't remove the boards."},
			{action: "break door", response: "You can't break the boards with your bare hands."},
			{action: "knock on door", response: "Nobody's home."}}},
	{key: "egg", room: "upATree", objective: "Climb the large tree on the Forest Path and get the jewel-encrusted egg",
		acts: []act{{action: "take egg", response: "Taken.", points: 5, take: "jewel-encrusted egg"}},
		attempts: []act{{action: "climb higher", response: "You cannot climb any higher."},
			{action: "open egg", response: "You have neither the tools nor the expertise."},
			{action: "look in nest", response: "In the bird's nest is a large egg encrusted with precious jewels."}}},
	{key: "kitchen", room: "behindHouse", objective: "Open the window behind the house and enter the kitchen",
		acts: []act{{action: "open window", response: "With great effort, you open the window far enough to allow entry."},
			{action: "west", to: "kitchen", points: 10}},
		attempts: []act{{action: "enter house", response: "The window is slightly ajar, but not enough to allow entry."},
			{action: "west", response: "The kitchen window is closed."},
			{action: "break window", response: "You can't break the window; it's far too sturdy."},
			{action: "push window", response: "Pushing the window has no effect."}}},
	{key: "lantern", room: "livingRoom", objective: "Take the brass lantern and the elvish sword in the Living Room",
		acts: []act{{action: "take lantern", response: "Taken.", take: "brass lantern"},
			{action: "take sword", response: "Taken.", take: "sword"}},
		attempts: []act{{action: "west", response: "The door is nailed shut."},
			{action: "open wooden door", response: "The door cannot be opened."}}},
	{key: "eggCase", room: "livingRoom", objective: "Put the jewel-encrusted egg in the trophy case",
		acts: []act{{action: "open case", response: "Opened."},
			{action: "put egg in case", response: "Done.", points: 5, drop: "jewel-encrusted egg"}},
		attempts: []act{{action: "take case", response: "The trophy case is securely fastened to the wall."}}},
	{key: "cellar", room: "livingRoom", objective: "Find a way down from the Living Room and explore the cellar",
		acts: []act{{action: "move rug", response: "With a great effort, the rug is moved to one side of the room, revealing the dusty cover of a closed trap door."},
			{action: "open trap door", response: "The door reluctantly opens to reveal a rickety staircase descending into darkness."},
			{action: "turn on lantern", response: "The brass lantern is now on."},
			{action: "down", response: "The trap door crashes shut, and you hear someone barring it.", to: "cellar", points: 25}},
		attempts: []act{{action: "west", response: "The door is nailed shut."},
			{action: "look under rug", response: "Underneath the rug is a closed trap door. As you drop the corner of the rug, the trap door is once again concealed from view."},
			{action: "take rug", response: "The rug is extremely heavy and cannot be carried."},
			{action: "pry door with sword", response: "That doesn't seem to work."},
			{action: "down", response: "You can't go that way."}}},
	{key: "troll", room: "trollRoom", objective: "Defeat the troll blocking the passages in the Troll Room",
		acts: []act{{action: "kill troll with sword", response: "Clang! Crash! The troll parries.\nThe troll swings his axe, but it misses.", combat: true},
			{action: "kill troll with sword", response: "The troll is staggered, and drops to his knees.\nThe troll slowly regains his feet.", combat: true},
			{action: "kill troll with sword", response: "The fatal blow strikes the troll square in the heart: He dies.\nAlmost as soon as the troll breathes his last breath, a cloud of sinister black fog envelops him, and when the fog lifts, the carcass has disappeared."}},
		attempts: []act{{action: "east", response: "The troll fends you off with a menacing gesture.", combat: true},
			{action: "examine axe", response: "The axe is bloody and notched from long use.", combat: true},
			{action: "wait", response: "The troll's axe barely misses your ear.", combat: true},
			{action: "talk to troll", response: "The troll isn't much of a conversationalist.", combat: true},
			{action: "west", response: "The troll fends you off with a menacing gesture.", combat: true}}},
	{key: "passage", room: "trollRoom", objective: "Explore the passages east of the Troll Room",
		acts: []act{{action: "east", to: "ewPassage", points: 5}}},
	{key: "bar", room: "loudRoom", objective: "Get the platinum bar from the Loud Room",
		acts: []act{{action: "echo", response: "The acoustics of the room change subtly."},
			{action: "take bar", response: "Taken.", points: 10, take: "platinum bar"}},
		attempts: []act{{action: "take bar", response: "It is unbearably loud here, with an ear-splitting roar seeming to come from all around you. There is a pounding in your head which won't stop."},
			{action: "listen", response: "The roar is deafening."},
			{action: "shout", response: "Aaaarrrrgggghhhh!"},
			{action: "cover ears", response: "That's not a verb I recognize."}}},
	{key: "painting", room: "gallery", objective: "Take the painting from the Gallery",
		acts: []act{{action: "take painting", response: "Taken.", points: 4, take: "painting"}}},
	{key: "chimney", room: "studio", objective: "Climb the chimney in the Studio back up to the Kitchen",
		acts: []act{{action: "up", to: "kitchen"}},
		attempts: []act{{action: "up", response: "The chimney is too narrow for you and all of your baggage."},
			{action: "climb chimney", response: "The chimney is too narrow for you and all of your baggage."},
			{action: "drop lantern", response: "Dropped."}, {action: "take lantern", response: "Taken."}}},
	{key: "deposit1", room: "livingRoom", objective: "Put the painting and the platinum bar in the trophy case",
		acts: []act{{action: "put painting in case", response: "Done.", points: 6, drop: "painting"},
			{action: "put bar in case", response: "Done.", points: 5, drop: "platinum bar"}}},
	{key: "tools", room: "maintenance", objective: "Search the Maintenance Room of the dam for tools",
		acts: []act{{action: "take wrench", response: "Taken.", take: "wrench"},
			{action: "take screwdriver", response: "Taken.", take: "screwdriver"},
			{action: "push yellow button", response: "Click."}},
		attempts: []act{{action: "push blue button", response: "There is a rumbling sound and a stream of water appears to burst from the east wall of the room (apparently, a leak has occurred in a pipe)."},
			{action: "push red button", response: "The lights within the room come on."},
			{action: "push brown button", response: "Click."}}},
	{key: "dam", room: "dam", objective: "Open the sluice gates of the dam with the wrench",
		acts: []act{{action: "turn bolt with wrench", response: "The sluice gates open and water pours through the dam."}},
		attempts: []act{{action: "turn bolt", response: "Your bare hands don't appear to be enough."},
			{action: "push bubble", response: "You can't reach the bubble."},
			{action: "open sluice gates", response: "The sluice gates are closed. They are controlled from the panel."},
			{action: "turn bolt with screwdriver", response: "The bolt won't turn using the screwdriver."}}},
	{key: "trunk", room: "reservoir", objective: "Recover the trunk of jewels from the drained reservoir",
		acts:     []act{{action: "take trunk", response: "Taken.", points: 15, take: "trunk of jewels"}},
		attempts: []act{{action: "swim", response: "I don't really see how."}, {action: "north", response: "You would drown."}}},
	{key: "trident", room: "atlantis", objective: "Get the crystal trident from the Atlantis Room",
		acts: []act{{action: "take trident", response: "Taken.", points: 4, take: "crystal trident"}}},
	{key: "deposit2", room: "livingRoom", objective: "Bring the trunk and the trident back to the trophy case",
		acts: []act{{action: "put trunk in case", response: "Done.", points: 5, drop: "trunk of jewels"},
			{action: "put trident in case", response: "Done.", points: 11, drop: "crystal trident"}}},
	{key: "rope", room: "attic", objective: "Get the rope from the attic",
		acts: []act{{action: "take rope", response: "Taken.", take: "rope"}}},
	{key: "dome", room: "domeRoom", objective: "Tie the rope to the railing in the Dome Room and climb down",
		acts: []act{{action: "tie rope to railing", response: "The rope drops over the side and comes within ten feet of the floor."},
			{action: "down", to: "torchRoom", drop: "rope"}},
		attempts: []act{{action: "down", response: "You cannot go down without fracturing many bones."},
			{action: "climb railing", response: "You'd fall."},
			{action: "tie rope", response: "What do you want to tie the rope to?"}}},
	{key: "torch", room: "torchRoom", objective: "Take the ivory torch from the pedestal",
		acts: []act{{action: "take torch", response: "Taken.", points: 14, take: "torch"}}},
	{key: "coffin", room: "egyptianRoom", objective: "Take the gold coffin from the Egyptian Room",
		acts: []act{{action: "take coffin", response: "Taken.", points: 10, take: "gold coffin"},
			{action: "open coffin", response: "The gold coffin opens.\nA sceptre, possibly that of ancient Egypt itself, is in the coffin."},
			{action: "take sceptre", response: "Taken.", points: 4, take: "sceptre"}},
		attempts: []act{{action: "west", response: "You haven't a prayer of getting the coffin up the stairs... it is too heavy."},
			{action: "pray", response: "If you pray enough, your prayers may be answered."}}},
	{key: "rainbow", room: "endOfRainbow", objective: "Find out what the rainbow at the End of Rainbow is for",
		acts: []act{{action: "wave sceptre", response: "Suddenly, the rainbow appears to become solid and, I venture, walkable (I think the giveaway was the stairs and bannister).\nA shimmering pot of gold appears at the end of the rainbow."},
			{action: "take pot", response: "Taken.", points: 10, take: "pot of gold"}},
		attempts: []act{{action: "cross rainbow", response: "Can you walk on water vapor?"},
			{action: "east", response: "Can you walk on water vapor?"},
			{action: "climb rainbow", response: "Can you walk on water vapor?"}}},
	{key: "deposit3", room: "livingRoom", objective: "Put the torch, the coffin, the sceptre and the gold in the trophy case",
		acts: []act{{action: "put torch in case", response: "Done.", points: 6, drop: "torch"},
			{action: "put coffin in case", response: "Done.", points: 15, drop: "gold coffin"},
			{action: "put sceptre in case", response: "Done.", points: 6, drop: "sceptre"},
			{action: "put pot in case", response: "Done.", points: 10, drop: "pot of gold"}}},
	{key: "coins", room: "mazeSkeleton", objective: "Find the bag of coins somewhere in the maze",
		acts:     []act{{action: "take bag", response: "Taken.", points: 10, take: "leather bag of coins"}},
		attempts: []act{{action: "drop leaflet", response: "Dropped."}, {action: "take leaflet", response: "Taken."}}},
	{key: "cyclops", room: "cyclopsRoom", objective: "Get past the cyclops blocking the staircase",
		acts: []act{{action: "ulysses", response: "The cyclops, hearing the name of his father's deadly nemesis, flees the room by knocking down the wall on the east of the room."}},
		attempts: []act{{action: "attack cyclops", response: "The cyclops shrugs but otherwise ignores your pitiful attempt."},
			{action: "give lunch to cyclops", response: "The cyclops says \"Mmm Mmm. I love hot peppers! But oh, could I use a drink. Perhaps I could drink the blood of that thing.\""},
			{action: "up", response: "The cyclops doesn't look like he'll let you past."},
			{action: "odysseus", response: "I don't know the word \"odysseus\"."}}},
	{key: "treasureRoom", room: "cyclopsRoom", objective: "Climb the staircase in the Cyclops Room",
		acts: []act{{action: "up", to: "treasureRoom", points: 25}}},
	{key: "chalice", room: "treasureRoom", objective: "Take the silver chalice from the Treasure Room",
		acts: []act{{action: "take chalice", response: "Taken.", points: 10, take: "chalice"}}},
	{key: "deposit4", room: "livingRoom", objective: "Put the coins and the chalice in the trophy case",
		acts: []act{{action: "put bag in case", response: "Done.", points: 5, drop: "leather bag of coins"},
			{action: "put chalice in case", response: "Done.", points: 5, drop: "chalice"}}},
}

// death is a way to die: the command, what the game says before the
// obituary, and where it can happen ("dark" for any underground room,
// "ground" for any room above).
type death struct {
	where, action, text string
}

var deaths = []death{
	{"trollRoom", "attack troll", "The troll's mighty axe removes your head."},
	{"dark", "turn off lantern", ""}, // see dieInDark: two turns, the lantern off, then a move
	{"dam", "jump", "You should have looked before you leaped.\nYou are swept over the dam and dashed against the rocks below."},
	{"damBase", "swim", "The current is too strong. You are carried downstream and over the falls."},
	{"cyclopsRoom", "attack cyclops", "The cyclops, tired of all of your games and trickery, grabs you firmly. As he licks his chops, he says \"Mmm. Just like Mom used to make 'em.\" It's nice to be appreciated."},
	{"ground", "jump", "This was not a very safe place to try jumping.\nYou should have looked before you leaped."},
}

const (
	obituary     = "\n\n    ****  You have died  ****\n\nNow, let me see...\nWell, you probably deserve another chance. I can't quite fix you up completely, but you can't have everything.\n\n"
	grueText     = "Oh, no! You have walked into the slavering fangs of a lurking grue!"
	deathPenalty = 10
)

var (
	placeIndex = map[string]int{} // key → index in places; lookups only
	stepIndex  = map[string]int{} // key → index in walkthrough
)

func init() {
	ids := map[int]string{}
	for i, p := range places {
		if _, dup := placeIndex[p.key]; dup {
			panic("synth: room key twice: " + p.key)
		}
		if other, dup := ids[p.id]; dup {
			panic(fmt.Sprintf("synth: rooms %s and %s share id %d", other, p.key, p.id))
		}
		placeIndex[p.key], ids[p.id] = i, p.key
	}
	for i, s := range walkthrough {
		stepIndex[s.key] = i
	}
	for _, p := range places {
		for _, x := range p.exits {
			if _, ok := placeIndex[x.to]; !ok {
				panic("synth: exit to an unknown room: " + p.key + " " + x.dir + " " + x.to)
			}
			if _, ok := stepIndex[x.gate]; x.gate != "" && !ok {
				panic("synth: exit gated by an unknown step: " + x.gate)
			}
		}
	}
	for _, s := range walkthrough {
		if _, ok := placeIndex[s.room]; !ok {
			panic("synth: step in an unknown room: " + s.key)
		}
	}
}

func placeOf(key string) *place { return &places[placeIndex[key]] }

// room is the Room of a place, with what the extractor counts there.
func (p *place) room() Room {
	objects := len(p.things)
	return Room{ID: p.id, Name: p.name, Exits: len(p.exits), Objects: objects}
}

// text is what the game prints on entering, given the steps done.
func (p *place) text(done []bool) string {
	s := p.name + "\n" + p.desc
	for _, it := range p.items {
		if it.gone == "" || !done[stepIndex[it.gone]] {
			s += "\n" + it.text
		}
	}
	return s
}
