# ruff: noqa: E501  (a table of phrasings: one concept a line reads best)
"""The labelled set of ``bench.recall_quality``: incidents, and questions about them in other words.

Every memory is one incident: a subject, what went wrong and why, each
concept said one of three English ways. A question names the same three
concepts, mostly in other words than its answer: another English wording of
every concept ("synonym"), German, French or Spanish ("language"), or the
subject worded as in the answer and the rest in other words ("mixed"). Since
every subject, fault and cause recurs across thousands of incidents, a
question is answered only by the one incident with all three. Generated
from a seed: the same set every run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

# concept: (English wordings, German, French, Spanish)
Concept = tuple[tuple[str, str, str], str, str, str]

SUBJECTS: list[Concept] = [
    (("npm package", "node module", "JavaScript library"), "das Node-Paket", "le paquet Node", "el paquete de Node"),
    (("Postgres database", "SQL store", "relational DB"), "die Datenbank", "la base de données", "la base de datos"),
    (("nginx web server", "HTTP frontend", "reverse proxy"), "der Webserver", "le serveur web", "el servidor web"),
    (("docker image", "container build", "OCI image"), "das Container-Abbild", "l'image de conteneur", "la imagen de contenedor"),
    (("test suite", "unit tests", "CI checks"), "die Testreihe", "la suite de tests", "las pruebas unitarias"),
    (("nightly backup", "snapshot job", "archive copy"), "die nächtliche Sicherung", "la sauvegarde nocturne", "la copia de seguridad nocturna"),
    (("login page", "sign-in form", "authentication screen"), "die Anmeldeseite", "la page de connexion", "la página de inicio de sesión"),
    (("mail server", "SMTP relay", "outgoing email"), "der E-Mail-Dienst", "le service de messagerie", "el servicio de correo"),
    (("payment API", "billing endpoint", "checkout service"), "die Zahlungsschnittstelle", "l'API de paiement", "la pasarela de pagos"),
    (("DNS records", "domain name lookup", "name resolution"), "die Namensauflösung", "la résolution de noms", "la resolución de nombres"),
    (("laptop battery", "notebook power cell", "portable computer's accumulator"), "der Laptop-Akku", "la batterie du portable", "la batería del portátil"),
    (("wifi network", "wireless LAN", "office hotspot"), "das WLAN", "le réseau sans fil", "la red inalámbrica"),
    (("git repository", "source repo", "version control history"), "das Quellcode-Archiv", "le dépôt de code", "el repositorio de código"),
    (("search index", "Lucene shards", "full-text catalogue"), "der Suchindex", "l'index de recherche", "el índice de búsqueda"),
    (("message queue", "Kafka topic", "event broker"), "die Nachrichtenwarteschlange", "la file de messages", "la cola de mensajes"),
    (("iOS app", "phone application", "mobile client"), "die Handy-App", "l'application mobile", "la aplicación móvil"),
    (("office printer", "laser printer", "print spooler"), "der Drucker", "l'imprimante", "la impresora"),
    (("cron schedule", "timed task runner", "periodic job"), "der Zeitplaner", "le planificateur de tâches", "el programador de tareas"),
    (("load balancer", "traffic distributor", "HAProxy pool"), "der Lastverteiler", "le répartiteur de charge", "el balanceador de carga"),
    (("budget spreadsheet", "Excel workbook", "finance sheet"), "die Tabellenkalkulation", "le tableur du budget", "la hoja de cálculo"),
    (("video call", "Zoom meeting", "online conference"), "die Videokonferenz", "la visioconférence", "la videollamada"),
    (("Redis cache", "in-memory store", "key-value cache"), "der Zwischenspeicher", "la mémoire cache", "la caché en memoria"),
    (("company website", "marketing homepage", "public site"), "die Firmenwebseite", "le site de l'entreprise", "el sitio web de la empresa"),
    (("hard disk", "storage volume", "SSD drive"), "die Festplatte", "le disque dur", "el disco duro"),
    (("Kubernetes cluster", "k8s nodes", "container orchestrator"), "der Kubernetes-Verbund", "la grappe Kubernetes", "el clúster de Kubernetes"),
]  # fmt: skip

FAULTS: list[Concept] = [
    (("failed", "broke", "stopped working"), "ist fehlgeschlagen", "a échoué", "falló"),
    (("was very slow", "lagged badly", "took ages to respond"), "war sehr langsam", "était très lent", "iba muy lento"),
    (("crashed", "fell over", "died unexpectedly"), "ist abgestürzt", "a planté", "se colgó"),
    (("corrupted its data", "wrote garbage", "mangled the records"), "hat Daten beschädigt", "a corrompu les données", "corrompió los datos"),
    (("rejected requests", "refused connections", "turned clients away"), "hat Anfragen abgewiesen", "a refusé les requêtes", "rechazó las peticiones"),
    (("ran out of memory", "exhausted its RAM", "hit the memory limit"), "hatte keinen Speicher mehr", "a manqué de mémoire", "se quedó sin memoria"),
    (("leaked a password", "exposed credentials", "published a secret key"), "hat ein Passwort preisgegeben", "a divulgué un mot de passe", "filtró una contraseña"),
    (("sent duplicates", "repeated every message twice", "produced double entries"), "hat Duplikate erzeugt", "a créé des doublons", "generó duplicados"),
    (("timed out", "hung until the deadline", "never answered in time"), "hat eine Zeitüberschreitung", "a expiré", "agotó el tiempo de espera"),
    (("overheated", "ran too hot", "got dangerously warm"), "ist überhitzt", "a surchauffé", "se sobrecalentó"),
    (("lost files", "deleted records", "dropped saved work"), "hat Dateien verloren", "a perdu des fichiers", "perdió archivos"),
    (("showed wrong numbers", "computed bad totals", "reported incorrect figures"), "zeigte falsche Zahlen", "affichait des chiffres faux", "mostró cifras erróneas"),
    (("would not start", "refused to boot", "failed to launch"), "startete nicht", "ne démarrait pas", "no arrancaba"),
    (("raised false alarms", "paged the on-call for nothing", "fired spurious alerts"), "löste Fehlalarme aus", "a déclenché de fausses alertes", "disparó falsas alarmas"),
]  # fmt: skip

CAUSES: list[Concept] = [
    (("a one-time password was required", "the 2FA code was missing", "the second authentication factor was not supplied"), "ein Einmalpasswort fehlte", "il manquait le code à usage unique", "faltaba la contraseña de un solo uso"),
    (("the TLS certificate expired", "an SSL cert was past its date", "the HTTPS credential had lapsed"), "das Zertifikat war abgelaufen", "le certificat avait expiré", "el certificado había caducado"),
    (("the disk was full", "no space was left on the volume", "storage hit capacity"), "die Festplatte war voll", "le disque était plein", "el disco estaba lleno"),
    (("a typo in the config file", "a misspelled setting", "a wrong key in the YAML"), "ein Tippfehler in der Konfiguration", "une faute de frappe dans la configuration", "un error tipográfico en la configuración"),
    (("a dependency upgrade", "bumping a library to a new major version", "a breaking update of a package"), "ein Versionssprung einer Abhängigkeit", "une mise à jour d'une dépendance", "una actualización de una dependencia"),
    (("a network outage", "the internet link going down", "lost connectivity"), "ein Netzwerkausfall", "une panne de réseau", "una caída de la red"),
    (("a power cut", "the electricity failing", "a blackout in the building"), "ein Stromausfall", "une coupure de courant", "un apagón"),
    (("the system clock drifting", "wrong time on the server", "clock skew between machines"), "eine falsch gehende Uhr", "une horloge déréglée", "un reloj desajustado"),
    (("a race condition", "two threads writing at once", "concurrent updates colliding"), "eine Wettlaufsituation", "une situation de concurrence", "una condición de carrera"),
    (("hitting the rate limit", "too many requests per minute", "API throttling"), "das Anfragelimit wurde erreicht", "la limite de débit a été atteinte", "se alcanzó el límite de peticiones"),
    (("wrong file permissions", "access was denied to the folder", "a missing read right"), "falsche Zugriffsrechte", "des permissions incorrectes", "permisos incorrectos"),
    (("a memory leak", "objects never being freed", "steadily growing heap"), "ein Speicherleck", "une fuite de mémoire", "una fuga de memoria"),
    (("a daylight saving time change", "the switch to summer time", "a time zone shift"), "die Zeitumstellung", "le changement d'heure", "el cambio de horario"),
    (("a stale cache", "outdated cached entries", "old values kept in memory"), "ein veralteter Zwischenspeicher", "un cache périmé", "una caché desactualizada"),
    (("someone deleting the wrong folder", "an operator mistake", "a manual slip by an admin"), "ein Bedienfehler", "une erreur humaine", "un error humano"),
    (("a character encoding mismatch", "UTF-8 text read as Latin-1", "garbled accents from a wrong charset"), "ein Zeichensatzfehler", "un problème d'encodage", "un error de codificación"),
]  # fmt: skip

_QUESTIONS = {
    "en": "Why did the {s} {f}? Was it {c}?",
    "de": "Warum {s} {f}? Lag es daran, dass {c}?",
    "fr": "Pourquoi {s} {f} ? Était-ce parce que {c} ?",
    "es": "¿Por qué {s} {f}? ¿Fue porque {c}?",
}
_LANGUAGES = {"de": 1, "fr": 2, "es": 3}


@dataclass(frozen=True)
class Incident:
    """One memory: which concepts, in which wording, as text."""

    key: tuple[int, int, int]
    wording: tuple[int, int, int]
    text: str


@dataclass(frozen=True)
class Question:
    """A labelled query: its text, how it was made, and the key of the one incident it asks about."""

    text: str
    kind: str
    answer: tuple[int, int, int]


def incidents(count: int, seed: int = 19) -> list[Incident]:
    """``count`` distinct incidents (at most every combination), each worded at random."""
    rng = random.Random(seed)
    keys = [
        (s, f, c) for s in range(len(SUBJECTS)) for f in range(len(FAULTS)) for c in range(len(CAUSES))
    ]  # fmt: skip
    rng.shuffle(keys)
    out = []
    for s, f, c in keys[:count]:
        w = (rng.randrange(3), rng.randrange(3), rng.randrange(3))
        subject, fault, cause = SUBJECTS[s][0][w[0]], FAULTS[f][0][w[1]], CAUSES[c][0][w[2]]
        out.append(Incident((s, f, c), w, f"The {subject} {fault} because {cause}."))
    return out


def questions(memory: list[Incident], count: int, seed: int = 23) -> list[Question]:
    """``count`` questions about distinct incidents: 40 % synonym, 30 % language, 30 % mixed."""
    rng = random.Random(seed)
    out = []
    for n, incident in enumerate(rng.sample(memory, count)):
        s, f, c = incident.key
        kind = "synonym" if n % 10 < 4 else "language" if n % 10 < 7 else "mixed"
        if kind == "language":
            language = ["de", "fr", "es"][n % 3]
            i = _LANGUAGES[language]
            parts = (SUBJECTS[s][i], FAULTS[f][i], CAUSES[c][i])
            text = _QUESTIONS[language].format(s=parts[0], f=parts[1], c=parts[2])
            out.append(Question(text, f"language-{language}", incident.key))
            continue
        other = [(w + 1 + rng.randrange(2)) % 3 for w in incident.wording]
        if kind == "mixed":
            other[0] = incident.wording[0]
        text = _QUESTIONS["en"].format(
            s=SUBJECTS[s][0][other[0]], f=FAULTS[f][0][other[1]], c=CAUSES[c][0][other[2]]
        )
        out.append(Question(text, kind, incident.key))
    return out
