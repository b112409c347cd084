// Popcorn Companion: the cinema mat.
//
// A flat carrier that lies under a player's cinema board. Four antenna loops sit in grooves
// on its top face, right under the board: one under each of the three theater slots and one
// under the exit zone. Each loop has its own RC522 module (its PCB coil cut off, see
// antennas.md) in a pocket next to it; one ESP32-C3 SuperMini in a corner pocket reads the
// four modules over one SPI bus, whose wires run in a channel along the front edge; the
// MISO guard (wiring.md) sits in a small pocket beside the SuperMini. A low lip
// around the edge holds the board in place. See README.md beside this file.
//
// Nothing below is a measured figure of the printed game: the board and zone sizes are
// placeholders. Measure your own board (the comments say what to measure) and set them with
// -D, or edit them here.
//
// STL:      openscad -o mat.stl mat.scad
//           openscad -o mat.stl -D board_width=330 -D board_depth=205 mat.scad
// Pieces:   the whole mat is larger than most print beds: print it in pieces,
//           openscad -o mat-0-0.stl -D 'part="tile"' -D 'tile=[0,0]' mat.scad
//           (then [1,0], [0,1], ...; print_bed sets the piece size), and tape them together
//           from below, or cut the mat from 7 mm foam board along the template:
// Template: openscad -o mat.svg -D 'part="template"' mat.scad   (1:1, the grooves' outlines)
// Picture:  openscad -o mat.png -D 'part="picture"' --imgsize=1200,900 \
//               --camera=176,95,0,38,0,12,760 --colorscheme=Tomorrow mat.scad
//           (the loops and boards in colour; on a machine without a display, put
//           xvfb-run -a in front: PNG export needs an OpenGL context, STL export does not)
//
// Axes: X left to right, Y front (the player's side) to back, Z up. Units: mm. Positions of
// the zones are measured from the board's front-left corner.

/* [What to show] */
// mat: the whole carrier; tile: one piece of it, cut to the print bed; template: a 2D
// outline of the pockets, channels and loop grooves, for cutting foam board
// picture: the mat with its loops and boards in colour (for mat.png)
part = "mat"; // [mat, tile, template, picture]
// for part="tile": which piece, [column, row], counted from the front-left corner
tile = [0, 0];
// the printer's usable bed, which sets the size of a piece
print_bed = [220, 220];

/* [The cinema board: measure your own] */
// outer width of the cinema board, left edge to right edge
board_width = 340;
// outer depth of the cinema board, front edge (the player's side) to back edge
board_depth = 210;
// thickness of the board's cardboard: the lip around the mat is this high, so the board
// lies flush with it
board_t = 2.0;
// play between the board and the lip, on each side
board_clear = 1.0;

/* [Zones: measure on the board, from its front-left corner] */
// left edge of each theater slot (where a theater tile lies), left to right
slot_x = [10, 92, 174];
// front edge of the theater slots (the same for the three)
slot_y = 110;
// width and depth of one theater slot, the area of a tile where guests sit on its seats
slot_size = [66, 80];
// front-left corner of the exit zone
exit_pos = [258, 80];
// width and depth of the exit zone (up to about 12 guests stand there)
exit_size = [72, 110];
// how far inside the zone's outline the loop's outer edge lies (a tag right over the trace
// is hard to read, see antennas.md; keep 20 mm or more between the loops of two zones)
loop_inset = 2;

/* [Loops] */
// turns of each loop (concentric grooves)
loop_turns = 2;
// width of a loop's trace: copper tape width, or the groove for an enamelled wire
trace_w = 5;
// gap between two turns
trace_gap = 1.5;
// depth of a loop groove: copper tape and a layer of insulating tape over it fit in 0.8 mm
groove_d = 0.8;

/* [Carrier] */
// thickness of the carrier under the board; the pockets need 1.6 mm of PCB plus the
// RC522's crystal (HC-49S, 3.5 mm) plus the floor
mat_t = 7;
// floor left under the pockets and channels
floor_t = 1.2;
// thickness of the lip around the board
wall = 3;

/* [Modules and wires] */
// RC522 module outline (40 x 60 mm), laid across: 60 mm along X
rc522_size = [60, 40];
// ESP32-C3 SuperMini outline (18 x 22.5 mm), its USB-C end at the front edge
mcu_size = [18, 23];
// the SuperMini's pocket, from the board's front-left corner
mcu_pos = [3, 2];
// the MISO guard (a 74LVC125A on a scrap of perfboard or a SOIC-14 adapter), beside the
// SuperMini: its outline
guard_size = [20, 16];
// play around each module in its pocket
module_clear = 0.5;
// gap between a zone's front edge and the back edge of its module's pocket
module_gap = 6;
// the SPI bus channel along the front: the centre's distance from the board's front edge,
// its width (7 wires side by side: SCK, MOSI, MISO, 3V3, GND and spare) and depth
bus_y = 13;
bus_w = 8;
bus_d = 3;
// a branch channel: from the bus to a module (CS, RST and the bus), and from a module to its
// loop (the loop's two leads, twisted)
branch_w = 6;
lead_w = 5;
lead_d = 2.5;
// the USB plug's notch in the front lip (a USB-C plug's moulding is about 12 x 7 mm)
usb_w = 13;

/* [Hidden] */
eps = 0.01;

inner_w = board_width + 2 * board_clear;
inner_d = board_depth + 2 * board_clear;
W = inner_w + 2 * wall;
D = inner_d + 2 * wall;
H = mat_t + board_t;
// the board's front-left corner
origin = [wall + board_clear, wall + board_clear];
pitch = trace_w + trace_gap;

// [x, y, width, depth] of each zone in board coordinates: three theater slots, then the exit
zones = [
    for (x = slot_x) [x, slot_y, slot_size.x, slot_size.y],
    [exit_pos.x, exit_pos.y, exit_size.x, exit_size.y],
];
rc_box = [rc522_size.x + 2 * module_clear, rc522_size.y + 2 * module_clear];
mcu_box = [mcu_size.x + 2 * module_clear, mcu_size.y + 2 * module_clear];
guard_box = [guard_size.x + 2 * module_clear, guard_size.y + 2 * module_clear];
// the guard's pocket: right of the SuperMini's, level with its front edge
guard_pos = [mcu_pos.x + mcu_box.x + 2, mcu_pos.y];

// the pocket of a zone's module: centred under the zone, in front of it
function module_pos(z) = [z[0] + z[2] / 2 - rc_box.x / 2, z[1] - module_gap - rc_box.y];

for (z = zones) {
    assert(z[0] >= 0 && z[1] >= 0 && z[0] + z[2] <= board_width && z[1] + z[3] <= board_depth,
           "a zone lies outside the board: check slot_x, slot_y, exit_pos and the sizes");
    assert(min(z[2], z[3]) - 2 * loop_inset - 2 * (loop_turns - 1) * pitch - 2 * trace_w > 10,
           "a loop has no room inside: fewer turns, a narrower trace or a smaller loop_inset");
    assert(module_pos(z)[1] > bus_y + bus_w / 2, "no room for a module in front of a zone");
}
assert(mat_t - floor_t >= 5, "pockets shallower than an RC522 with its crystal");
assert(guard_pos.x + guard_box.x < min([for (z = zones) module_pos(z).x + rc_box.x]),
       "no room for the MISO guard beside the SuperMini");
assert(bus_d < mat_t - floor_t + eps && lead_d < mat_t - floor_t + eps, "channels too deep");

// ---------------------------------------------------------------- what is cut away

// a rectangular ring: the groove of one turn of a loop, outer size [w, d]
module ring(x, y, w, d) {
    difference() {
        translate([x, y, 0]) square([w, d]);
        translate([x + trace_w, y + trace_w, 0]) square([w - 2 * trace_w, d - 2 * trace_w]);
    }
}

// a box cut from the top face down to depth, reaching a little above the top face
module cut(x, y, w, d, depth) {
    translate([x, y, mat_t - depth]) cube([w, d, depth + 1]);
}

module zone_cuts(z) {
    m = module_pos(z);
    // the loop's grooves, one per turn, outermost first
    for (k = [0 : loop_turns - 1]) {
        o = loop_inset + k * pitch;
        translate([0, 0, mat_t - groove_d])
            linear_extrude(groove_d + 1) ring(z[0] + o, z[1] + o, z[2] - 2 * o, z[3] - 2 * o);
    }
    // the RC522 pocket
    cut(m.x, m.y, rc_box.x, rc_box.y, mat_t - floor_t);
    // the loop's leads, from the pocket's back edge into the innermost groove
    cut(z[0] + z[2] / 2 - lead_w / 2, m.y + rc_box.y - 1, lead_w,
        module_gap + loop_inset + loop_turns * pitch + 1, lead_d);
    // the branch from the bus to the pocket's front edge
    cut(m.x + 6, bus_y - bus_w / 2 + 1, branch_w, m.y - bus_y + bus_w / 2, bus_d);
}

module cuts() {
    translate([origin.x, origin.y, 0]) {
        for (z = zones) zone_cuts(z);
        // the SuperMini's pocket, the guard's, and the SPI bus from them to the last module
        cut(mcu_pos.x, mcu_pos.y, mcu_box.x, mcu_box.y, mat_t - floor_t);
        cut(guard_pos.x, guard_pos.y, guard_box.x, guard_box.y, mat_t - floor_t);
        last = max([for (z = zones) module_pos(z).x + 6 + branch_w]);
        cut(mcu_pos.x + mcu_box.x - 1, bus_y - bus_w / 2, last - mcu_pos.x - mcu_box.x + 1,
            bus_w, bus_d);
    }
    // the USB plug's notch, through the front lip into the SuperMini's pocket
    translate([origin.x + mcu_pos.x + mcu_box.x / 2 - usb_w / 2, -1, floor_t])
        cube([usb_w, origin.y + mcu_pos.y + 2, H]);
}

// ---------------------------------------------------------------- the carrier

module mat() {
    difference() {
        cube([W, D, H]);
        // the board's bed, inside the lip
        translate([wall, wall, mat_t]) cube([inner_w, inner_d, board_t + 1]);
        cuts();
    }
}

module template() {
    difference() {
        square([W, D]);
        projection(cut = true) translate([0, 0, -(mat_t - groove_d / 2)]) cuts();
    }
}

// the mat with copper loops and the boards in their pockets, in colour; a picture only
module picture() {
    color("burlywood") mat();
    translate([origin.x, origin.y, 0]) {
        for (z = zones) {
            m = module_pos(z);
            for (k = [0 : loop_turns - 1]) {
                o = loop_inset + k * pitch;
                color("chocolate") translate([0, 0, mat_t - groove_d])
                    linear_extrude(0.3) ring(z[0] + o, z[1] + o, z[2] - 2 * o, z[3] - 2 * o);
            }
            color("royalblue") translate([m.x + module_clear, m.y + module_clear, floor_t])
                cube([rc522_size.x, rc522_size.y, 1.6]);
            color("silver") translate([m.x + 12, m.y + 8, floor_t + 1.6]) cube([11, 4.5, 3.4]);
        }
        // the wires: the SPI bus and its branches (grey), each loop's leads (copper)
        last = max([for (z = zones) module_pos(z).x + 6 + branch_w]);
        color("dimgray") translate([mcu_pos.x + mcu_box.x, bus_y - bus_w / 2 + 1,
                                    mat_t - bus_d])
            cube([last - mcu_pos.x - mcu_box.x - 1, bus_w - 2, 1.5]);
        for (z = zones) {
            m = module_pos(z);
            color("dimgray") translate([m.x + 7, bus_y, mat_t - bus_d])
                cube([branch_w - 2, m.y - bus_y + 1, 1.5]);
            color("chocolate") translate([z[0] + z[2] / 2 - lead_w / 2 + 1, m.y + rc_box.y - 8,
                                          mat_t - lead_d])
                cube([lead_w - 2, module_gap + loop_inset + loop_turns * pitch + 8, 1.2]);
        }
        color("seagreen") translate([guard_pos.x + module_clear, guard_pos.y + module_clear,
                                     floor_t]) cube([guard_size.x, guard_size.y, 1.6]);
        color("#222") translate([guard_pos.x + 6, guard_pos.y + 5, floor_t + 1.6])
            cube([8.7, 4, 1.6]);
        color("#222") translate([mcu_pos.x + module_clear, mcu_pos.y + module_clear, floor_t])
            cube([mcu_size.x, mcu_size.y, 1.0]);
        color("silver") translate([mcu_pos.x + module_clear + mcu_size.x / 2 - 4.5, mcu_pos.y,
                                   floor_t + 1.0]) cube([9, 7.5, 3.2]);
    }
}

if (part == "mat") {
    mat();
} else if (part == "tile") {
    intersection() {
        mat();
        translate([tile.x * print_bed.x, tile.y * print_bed.y, -1])
            cube([print_bed.x, print_bed.y, H + 2]);
    }
} else if (part == "picture") {
    picture();
} else if (part == "template") {
    template();
} else {
    assert(false, str("unknown part: ", part));
}
