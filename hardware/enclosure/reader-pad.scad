// Popcorn Companion: bag reader pad.
//
// A box that clips onto the rim of a cloth bag. Under the marked tap target on its top sits
// the RC522's antenna; beside it the ESP32 dev board (or a Raspberry Pi Pico W), the status
// LED and the buzzer. Two printed parts:
//
//   shell  the top, the walls and the U-shaped rim clip; print it upside down (top on the
//          bed): no supports, and the tap target prints on the smooth bed side
//   base   the bottom plate with the posts that hold the boards; print it flat
//
// The base is screwed into the shell from below with five M2 x 8 screws. PLA works; PETG
// gives a springier clip. 0.2 mm layers, 3 perimeters, 20 % infill, no supports.
//
// Picture:  openscad -o reader-pad.png --imgsize=1200,900 --viewall --autocenter \
//               --colorscheme=Tomorrow reader-pad.scad
//           (the overview sets its own camera below, so OpenSCAD says it ignores --viewall;
//           on a machine without a display, put xvfb-run -a in front)
// STL:      openscad -o shell.stl -D 'part="shell"' reader-pad.scad
//           openscad -o base.stl  -D 'part="base"'  reader-pad.scad
//           openscad -o reader-pad.stl -D 'part="print"' reader-pad.scad   (both, as printed)
// Options:  -D 'wiring="soldered"' for the slim box, -D 'board="picow"' for a Pico W,
//           -D fabric_t=2 for a thick bag; every parameter below can be set the same way.
//
// Axes: X left to right, Y front (player side) to back (clip side), Z up. Units: mm.

/* [What to show] */
// exploded: shell lifted above the base with board placeholders; assembly: closed;
// shell, base: one printable part each; print: both parts laid out as printed
part = "exploded"; // [exploded, assembly, shell, base, print]

/* [Boards and wiring] */
// "dupont": jumper housings on header pins (taller box); "soldered": wires soldered straight
// to the boards (slim box)
wiring = "dupont"; // [dupont, soldered]
// the microcontroller board in the right-hand pocket
board = "esp32"; // [esp32, picow]
// RC522 module outline and PCB thickness
rc522_size = [40, 60, 1.6];
// distance from the RC522's header edge to the centre of its antenna coil
rc522_antenna_from_header = 38;
// ESP32-DevKitC (WROOM-32) outline, PCB thickness, height of the module above the PCB
esp32_size = [28, 55, 1.6];
esp32_top_height = 3.6;
// Raspberry Pi Pico W outline, PCB thickness, tallest part above the PCB
picow_size = [21, 51, 1.0];
picow_top_height = 2.2;
// clearance around each board
board_clear = 0.3;

/* [Rim clip] */
// thickness of one layer of the bag's fabric
fabric_t = 1.2;
// layers of fabric in the clip (2 for a hemmed rim)
fabric_layers = 2;
// the clip's slot is this fraction of the fabric's thickness, so it pinches
pinch = 0.8;
// clip width along the back edge, leg thickness, leg length
clip_w = 50;
clip_leg_t = 2.6;
clip_len = 22;

/* [Shell] */
wall = 2.2;
// top thickness, and what is left of it right over the antenna
top_t = 2.0;
tap_t = 1.2;
base_t = 2.4;
corner_r = 5;
// column between the RC522 and the microcontroller (LED, two screw bosses, wires)
mid_w = 9;
// tap target: outer diameter of the engraved ring, engraving depth
tap_d = 30;
engrave = 0.6;
// status LED (5 mm RGB, its dome pokes through the top) and buzzer (12 mm passive)
led_d = 5;
buzzer_d = 12;
buzzer_h = 9.5;
// USB plug opening in the front wall (width, height)
usb_hole = [11, 7];

/* [Screws] */
boss_d = 5.6;
// 1.7 for M2 screws cut straight into the plastic; 3.2 for M2 heat-set inserts
screw_pilot = 1.7;
screw_clear = 2.4;
screw_head_d = 4.2;
screw_head_h = 1.2;

/* [Hidden] */
$fn = 48;
eps = 0.01;

// space under the ceiling: jumper housings (14 mm) plus their bend, or soldered wires
inner_h = wiring == "dupont" ? 24 : 12;
mcu_size = board == "picow" ? picow_size : esp32_size;
mcu_top = board == "picow" ? picow_top_height : esp32_top_height;

rc_box = [rc522_size.x + 2 * board_clear, rc522_size.y + 2 * board_clear];
mcu_box = [esp32_size.x + 2 * board_clear, esp32_size.y + 2 * board_clear];
// front and back margin of the RC522 column, where the corner bosses stand
y_margin = boss_d + 0.6;

in_w = rc_box.x + mid_w + mcu_box.x;
in_d = rc_box.y + 2 * y_margin;
W = in_w + 2 * wall;
D = in_d + 2 * wall;
H = base_t + inner_h + top_t;
z_ceiling = H - top_t;

rc_x0 = wall;
rc_y0 = wall + y_margin;
mid_x0 = wall + rc_box.x;
mcu_x0 = mid_x0 + mid_w;
// the microcontroller's USB end touches the front wall
mcu_y0 = wall;
// board placed in the middle of its column (the Pico W is narrower than the pocket)
mcu_bx = mcu_x0 + (mcu_box.x - mcu_size.x) / 2;
mcu_by = mcu_y0 + board_clear;
// top face of the microcontroller's PCB: its module clears the ceiling by 0.6 mm
mcu_pcb_top = z_ceiling - mcu_top - 0.6;

// the RC522 nests 0.8 mm into the ceiling, so only tap_t of plastic is over its antenna
nest = top_t - tap_t;
rc_back = z_ceiling + nest;            // back of the RC522 PCB (no parts on this side)
rc_front = rc_back - rc522_size.z;     // component side, facing down

tap_c = [rc_x0 + rc_box.x / 2,
         rc_y0 + board_clear + (rc522_size.y - rc522_antenna_from_header)];
led_c = [mid_x0 + mid_w / 2, rc_y0 + rc_box.y * 0.62];
buzzer_c = [mcu_x0 + mcu_box.x / 2, D - wall - (in_d - mcu_box.y) / 2 + 0.3];

// the bosses stand 0.8 mm into the walls, so that they merge with them
boss_in = wall + boss_d / 2 - 0.8;
boss_pos = [
    [boss_in, boss_in],
    [boss_in, D - boss_in],
    [mid_x0 + mid_w / 2, boss_in],
    [mid_x0 + mid_w / 2, D - boss_in],
    [W - boss_in, D - boss_in],
];

slot = fabric_t * fabric_layers * pinch;

assert(in_d - mcu_box.y >= buzzer_d + 4, "no room for the buzzer behind the board");
assert(mid_w >= boss_d + 1, "middle column too narrow for the screw bosses");
assert(clip_len <= H + 10, "clip longer than useful");

// ---------------------------------------------------------------- helpers

module rounded_rect(size, r) {
    offset(r = r) offset(delta = -r) square([size.x, size.y]);
}

module rounded_box(size, r) {
    linear_extrude(size.z) rounded_rect([size.x, size.y], r);
}

// ---------------------------------------------------------------- shell

module tap_target() {
    // engraved into the top face: a ring, a centre dot and four ticks
    translate([tap_c.x, tap_c.y, H - engrave]) linear_extrude(engrave + eps) {
        difference() { circle(d = tap_d); circle(d = tap_d - 2.4); }
        circle(d = 4);
        for (a = [0, 90, 180, 270]) rotate(a)
            translate([tap_d / 2 - 7, -0.6]) square([4.5, 1.2]);
    }
}

module label() {
    translate([tap_c.x, tap_c.y - tap_d / 2 - 6, H - engrave])
        linear_extrude(engrave + eps)
            text("TAP", size = 4.5, halign = "center", valign = "center",
                 font = "Liberation Sans:style=Bold");
}

module sound_holes() {
    for (i = [0 : 5]) rotate(i * 60) translate([3.4, 0]) circle(d = 1.6);
    circle(d = 1.6);
}

module shell() {
    difference() {
        union() {
            difference() {
                rounded_box([W, D, H], corner_r);
                // hollow
                translate([wall, wall, -eps])
                    rounded_box([in_w, in_d, z_ceiling + eps], corner_r - wall);
            }
            for (p = boss_pos) translate([p.x, p.y, base_t])
                cylinder(d = boss_d, h = z_ceiling - base_t + eps);
            // buzzer cup and LED tube hang from the ceiling
            translate([buzzer_c.x, buzzer_c.y, z_ceiling - buzzer_h + 2])
                cylinder(d = buzzer_d + 3, h = buzzer_h - 2 + eps);
            translate([led_c.x, led_c.y, z_ceiling - 5]) cylinder(d = led_d + 3, h = 5 + eps);
            // two ribs hold down the far end of the microcontroller board
            for (sx = [0, 1]) translate([mcu_bx + sx * (mcu_size.x - 3), mcu_by + mcu_size.y - 4,
                                          mcu_pcb_top])
                cube([3, 3, z_ceiling - mcu_pcb_top + eps]);
            rim_clip();
        }
        // the RC522 nests into the ceiling, flat back up
        translate([rc_x0, rc_y0, z_ceiling - eps]) cube([rc_box.x, rc_box.y, nest + eps]);
        // relief for the header's solder joints on the back of the RC522
        translate([tap_c.x - 12, rc_y0 + rc_box.y - 5, z_ceiling - eps])
            cube([24, 4.5, nest + 0.5 + eps]);
        // screw holes in the bosses
        for (p = boss_pos) translate([p.x, p.y, base_t - eps])
            cylinder(d = screw_pilot, h = z_ceiling - base_t - 1);
        // buzzer pocket and sound holes
        translate([buzzer_c.x, buzzer_c.y, z_ceiling - buzzer_h])
            cylinder(d = buzzer_d + 0.4, h = buzzer_h + eps);
        translate([buzzer_c.x, buzzer_c.y, z_ceiling - eps])
            linear_extrude(top_t + 2 * eps) sound_holes();
        // LED: the dome pokes through the top
        translate([led_c.x, led_c.y, z_ceiling - 5 - eps]) cylinder(d = led_d + 0.2, h = 5 + top_t + 1);
        // USB plug opening, centred on the connector on top of the board
        translate([mcu_x0 + mcu_box.x / 2 - usb_hole.x / 2, -eps, mcu_pcb_top + 1.5 - usb_hole.y / 2])
            cube([usb_hole.x, wall + 2 * eps, usb_hole.y]);
        tap_target();
        label();
    }
}

// U-shaped clip on the back: the back wall is the outer leg, a thinner leg goes inside the bag
module rim_clip() {
    leg_top = H;
    translate([W / 2 - clip_w / 2, 0, 0]) rotate([90, 0, 90]) linear_extrude(clip_w)
        difference() {
            union() {
                // bridge over the fabric, level with the top
                translate([D - eps, H - top_t]) square([slot + clip_leg_t + eps, top_t]);
                // inner leg
                translate([D + slot, H - clip_len]) square([clip_leg_t, clip_len]);
                // grip ridge at the bottom of the inner leg, and a lead-in
                translate([D + slot + eps, H - clip_len])
                    polygon([[0, 0], [0, 5], [-slot * 0.45, 2.5], [-slot * 0.45, 1]]);
            }
        }
}

// ---------------------------------------------------------------- base

module base() {
    lift_rc = rc_front - 0.1 - base_t;
    lift_mcu = mcu_pcb_top - mcu_size.z - base_t;
    difference() {
        union() {
            translate([wall + 0.25, wall + 0.25, 0])
                rounded_box([in_w - 0.5, in_d - 0.5, base_t], corner_r - wall);
            // four posts press the RC522 up into its nest, at its corners (no parts there)
            for (px = [2, rc522_size.x - 7], py = [2, rc522_size.y - 7])
                translate([rc_x0 + board_clear + px, rc_y0 + board_clear + py, base_t - eps])
                    cube([5, 5, lift_rc]);
            // two ribs carry the microcontroller board at its ends, between its two pin rows
            for (py = [1, mcu_size.y - 3.5])
                translate([mcu_bx + 4.5, mcu_by + py, base_t - eps])
                    cube([mcu_size.x - 9, 2.5, lift_mcu]);
        }
        for (p = boss_pos) translate([p.x, p.y, -eps]) {
            cylinder(d = screw_clear, h = base_t + 2 * eps);
            cylinder(d = screw_head_d, h = screw_head_h);
        }
    }
}

// ---------------------------------------------------------------- board placeholders

module boards() {
    // RC522: blue PCB, components and header facing down
    color("royalblue") translate([rc_x0 + board_clear, rc_y0 + board_clear, rc_front])
        cube(rc522_size);
    color("gold") translate([tap_c.x, tap_c.y, rc_back]) linear_extrude(0.05)
        difference() { square([34, 34], center = true); square([30, 30], center = true); }
    color("black") translate([tap_c.x - 10.2, rc_y0 + rc_box.y - 4, rc_front - 2.5])
        cube([20.4, 2.5, 2.5]);
    // microcontroller: dark PCB with a silver module
    color(board == "picow" ? "green" : "dimgray")
        translate([mcu_bx, mcu_by, mcu_pcb_top - mcu_size.z]) cube(mcu_size);
    color("silver") translate([mcu_bx + (mcu_size.x - 18) / 2, mcu_by + mcu_size.y - 25.5,
                               mcu_pcb_top]) cube([18, 25.5, mcu_top]);
    color("silver") translate([mcu_bx + mcu_size.x / 2 - 4, mcu_by, mcu_pcb_top])
        cube([8, 5.5, 3]);
    // buzzer and LED
    color("black") translate([buzzer_c.x, buzzer_c.y, z_ceiling - buzzer_h]) cylinder(d = buzzer_d, h = buzzer_h);
    color("red") translate([led_c.x, led_c.y, z_ceiling - 4]) cylinder(d = led_d, h = 4 + top_t);
}

// ---------------------------------------------------------------- parts

module show() {
    if (part == "shell") {
        shell();
    } else if (part == "base") {
        base();
    } else if (part == "print") {
        // shell upside down, top on the bed; base flat beside it
        translate([0, D, H]) rotate([180, 0, 0]) shell();
        translate([W + 10, 0, 0]) base();
    } else if (part == "assembly") {
        color("white") shell();
        color("lightgray") base();
    } else {
        // overview: the closed pad seen from its clip side (back), the shell turned over,
        // the base with the boards
        translate([-15, 2 * D + 40, 0]) rotate([0, 0, 180]) {
            color("whitesmoke") shell();
            color("lightgray") base();
        }
        translate([15, 2 * D + 40, H]) rotate([180, 0, 0]) color("whitesmoke") shell();
        translate([-W / 2, 0, 0]) {
            color("lightgray") base();
            boards();
        }
    }
}

show();

// the overview picture's camera (the other parts use --viewall)
$vpr = part == "exploded" ? [50, 0, 340] : undef;
$vpt = part == "exploded" ? [0, 90, 10] : undef;
$vpd = part == "exploded" ? 480 : undef;
