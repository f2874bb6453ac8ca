package mapview

import (
	"image/color"

	"fieldpost/engine/stargeneral/rules"
)

// flatColours are the solid colours the map is painted with.
func flatColours() []color.RGBA {
	out := []color.RGBA{
		paperColour, ink, roadEdge, roadFill, bridgeSide, bridgeDeck, unheld,
		labelBack, objLabelBack, destroyed, halo,
		openGround, woodsGround, woodsTree, townGround, townHouse,
		roughGround, roughSpeck, bocageField, bocageHedge, worksGround, worksLine,
		streamBlue, riverBlue, riverWave, lakeBlue, lakeWave, otherGround,
		counterRim, symbolBack, lossText, markBack,
		combatFill, combatRim, barrageBg, markerInk,
		titleBack, titleInk, titleSub, legendInk,
	}
	out = append(out, sideFill[:]...)
	out = append(out, sideStrong[:]...)
	for _, s := range rules.AllStatuses {
		out = append(out, statusBack[s], statusInk[s])
	}
	return out
}

// pngLevel is the zlib level of the PNG: on the division map level 6
// makes a file 13% smaller than level 5, which was 40% quicker, and the
// mails of a division game need it to stay under 200 KB (issue 25); level
// 7 saves 3% more in a good deal more time.
const pngLevel = 6
