package mail

import "testing"

// Every language of deviceSignature is found with its word: the quick test
// before the regular expression lets none of them through.
func TestDeviceSignaturesOfEveryLanguage(t *testing.T) {
	for _, line := range []string{
		"Sent from my iPhone", "Get Outlook for Android", "Envoyé de mon iPhone", "Von meinem iPhone gesendet",
		"Gesendet von Mail für Windows", "Diese Nachricht wurde von meinem Android-Mobiltelefon mit WEB.DE Mail gesendet",
		"Sendt fra min iPhone", "Skickat från min iPhone", "Enviado desde mi iPhone", "Inviato da iPhone",
		"Verzonden met mijn iPhone", "Отправлено с iPhone", "Wysłane z mojego iPhone'a", "Lähetetty iPhonesta",
		"Verstuurd vanaf mijn iPhone", "Odesláno z iPhonu", "Надіслано з iPhone", "Εστάλη από το iPhone μου",
		"iPhone'umdan gönderildi", "iPhone-ról küldve", "從我的 iPhone 傳送", "发自我的iPhone", "iPhoneから送信",
	} {
		if !isDeviceSignature(line) {
			t.Errorf("%q is not taken for a device signature", line)
		}
	}
	for _, line := range []string{"A1/20 MOVE 0505 0606", "I sent my tanks forward", "GAME demo SIDE us ROUND 3"} {
		if isDeviceSignature(line) {
			t.Errorf("%q is taken for a device signature", line)
		}
	}
}
