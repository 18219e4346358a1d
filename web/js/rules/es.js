// Las páginas de reglas en español: lo que dicen docs/*rules*.md y el reglamento del
// Ajedrez 3D, para jugadores.

// Las filas de la tabla de damas, por modalidad.
const RULE_SETS = ['international', 'english', 'brazilian', 'russian', 'spanish', 'italian'];

export default {
  title: 'Reglas',
  games_label: 'Juegos',
  diagrams: {
    'chess.k': 'Rey: una casilla en cualquier dirección.',
    'chess.q':
      'Dama: cualquier distancia por filas, columnas y diagonales; se detiene ante su peón de d6 y puede capturar el caballo de f6.',
    'chess.r': 'Torre: cualquier distancia por su fila y su columna; puede capturar el caballo de f4.',
    'chess.b': 'Alfil: cualquier distancia en diagonal; puede capturar el caballo de b2.',
    'chess.n':
      'Caballo: una L, dos casillas en un sentido y una de lado, saltando piezas; nunca sobre una pieza propia (c6).',
    'chess.p':
      'Peón: una casilla adelante, dos desde su casilla inicial; captura una casilla en diagonal hacia delante (d3, f3).',
    'xiangqi.k': 'General: un punto en línea recta, dentro de su palacio.',
    'xiangqi.a': 'Consejero: un punto en diagonal, dentro de su palacio.',
    'xiangqi.b':
      'Elefante: dos puntos en diagonal, sin pasar sobre una pieza (el caballo de f3 tapa g4); nunca cruza el río.',
    'xiangqi.n':
      'Caballo: un punto recto y luego uno en diagonal hacia fuera; una pieza a su lado le cierra ese camino (el soldado de e5).',
    'xiangqi.r': 'Carro: cualquier distancia en línea recta; puede capturar el soldado de e6.',
    'xiangqi.c':
      'Cañón: se mueve como el carro, pero solo captura saltando exactamente una pieza (la pantalla): e8 sobre e6, a4 sobre b4.',
    'xiangqi.p': 'Soldado: un punto adelante; tras cruzar el río, también uno de lado. Nunca hacia atrás.',
    'draughts.m': 'Peón: una casilla en diagonal hacia delante, a una casilla vacía.',
    'draughts.capture':
      'Una captura salta una pieza contraria contigua hasta la casilla vacía de detrás. Capturar es obligatorio; los peones capturan también hacia atrás donde la modalidad lo permite.',
    'draughts.k':
      'Dama: en diagonal en cualquier sentido; la dama volante recorre cualquier distancia, la corta una casilla.',
    'chess3d.a':
      'Alfil: se desliza en línea recta por filas y columnas (¡no en diagonal!). Con otro alfil propio en una de sus diagonales (F2) puede además subir o bajar un nivel.',
    'chess3d.t':
      'Torre: se desliza en diagonal (¡no en línea recta!); su peón de F6 la detiene. Con otra torre propia en su fila o columna (D8) puede además cambiar de nivel.',
    'chess3d.c':
      'Caballo: una L, pero recorre primero el lado largo y no salta: su peón de C4 le cierra B3 y B5. No cambia de nivel.',
    'chess3d.d':
      'Dama: una o dos casillas en cualquier dirección, saltando la casilla intermedia. Con su rey al lado (C3) puede cambiar de nivel. Quien la pierde, pierde la partida.',
    'chess3d.r':
      'Rey: se desliza cualquier distancia en las ocho direcciones y siempre puede subir o bajar un nivel a una casilla vacía.',
    'chess3d.p':
      'Peón: una casilla adelante; captura una casilla en diagonal hacia atrás (C3, C5); con un peón propio en la misma casilla de otro nivel, y fuera de su fila inicial, puede además avanzar en diagonal (E3, E5).',
  },
  games: {
    chess: [
      {
        h: 'Cómo se mueven las piezas',
        body: [
          'Empiezan las blancas y los jugadores se alternan. Una pieza va a una casilla vacía o captura una pieza contraria ocupando su casilla. Solo el caballo salta sobre otras piezas.',
          [
            'Enroque: el rey avanza dos casillas hacia una torre, que salta a la casilla que el rey cruzó. No se puede si el rey o esa torre ya se movieron, si el rey está en jaque, cruza o llega a una casilla atacada, o si hay piezas entre ellos.',
            'Captura al paso: un peón que acaba de avanzar dos casillas puede ser capturado por un peón contrario que esté a su lado, como si hubiera avanzado una — solo en la jugada siguiente.',
            'Coronación: un peón que llega a la última fila se convierte en dama, torre, alfil o caballo, a elección de su jugador.',
            'Ajedrez 960: las piezas de la primera fila empiezan en uno de 960 órdenes (el rey entre las torres, los alfiles en casillas de distinto color). El enroque deja rey y torre en las mismas casillas que en el ajedrez clásico.',
          ],
        ],
        pieces: true,
      },
      {
        h: 'Cómo termina la partida',
        body: [
          [
            'Jaque mate: el rey está atacado (jaque) y ninguna jugada lo salva. Gana quien da mate.',
            'Rey ahogado: el bando que mueve no está en jaque y no tiene jugadas legales. Tablas.',
            'Posición muerta: ningún bando puede dar mate con ninguna serie de jugadas legales (por ejemplo rey contra rey y alfil). Tablas inmediatas.',
            'Triple repetición o cincuenta jugadas de cada bando sin captura ni movimiento de peón: quien mueve puede reclamar tablas (botón «Reclamar tablas»). La quinta repetición y las setenta y cinco jugadas terminan la partida en tablas sin reclamarlas.',
            'Abandonar pierde; las tablas pueden ofrecerse y aceptarse en cualquier momento.',
            'Quien se queda sin tiempo pierde, salvo que el rival no pueda dar mate con ninguna serie de jugadas legales: entonces son tablas. Abandonar en ese caso también da tablas.',
          ],
        ],
      },
      {
        h: 'Cómo se anotan las jugadas',
        body: [
          'La lista de jugadas usa la notación algebraica (SAN, con letras inglesas): la letra de la pieza (K rey, Q dama, R torre, B alfil, N caballo; ninguna para el peón), x para capturar y la casilla: Nf3, exd5, Qxf7#. El enroque es O-O (corto) y O-O-O (largo); la coronación e8=Q; + indica jaque, # mate. Las casillas se nombran por columna a–h y fila 1–8 desde el lado blanco.',
          'La casilla de jugada acepta también coordenadas (UCI): g1f3, e7e8q. Las partidas se exportan en PGN.',
        ],
      },
    ],
    xiangqi: [
      {
        h: 'Cómo se mueven las piezas',
        body: [
          'El xiangqi se juega en los 90 puntos de un tablero de 9 × 10; el río cruza su centro y cada bando tiene un palacio de 3 × 3 puntos. Empiezan las rojas. Una pieza captura ocupando el punto de una pieza contraria.',
          'Los dos generales nunca pueden quedar frente a frente en una columna sin piezas entre ellos, y ninguna jugada puede dejar atacado al propio general.',
        ],
        pieces: true,
      },
      {
        h: 'Cómo termina la partida',
        body: [
          [
            'Jaque mate: pierde el bando cuyo general está atacado y no puede escapar.',
            'Quedarse sin jugadas legales también pierde: en el xiangqi el ahogado es una derrota, no tablas.',
            'Repetición: cuando la misma posición (las mismas piezas en los mismos puntos y el mismo bando al turno) aparece por tercera vez, se arbitra automáticamente. Pierde el bando que dio jaque en cada una de sus jugadas del ciclo (jaque perpetuo); si no, el que persiguió una y la misma pieza en cada jugada (persecución perpetua); si ambos hacen lo mismo, o ninguno, son tablas.',
            'Perseguir es amenazar con ganar una pieza no protegida (un carro no puede ser perseguido por caballo o cañón ni aunque esté protegido). Se permiten las amenazas del general o de los soldados, las amenazas de mate y las amenazas al general o a soldados que no han cruzado el río (reglas asiáticas AXF/WXF).',
            'Sesenta jugadas de cada bando sin captura: tablas (de los jaques de cada bando solo cuentan los diez primeros).',
            'El abandono, las tablas acordadas o el fin del tiempo terminan la partida; quedarse sin tiempo siempre pierde.',
          ],
        ],
      },
      {
        h: 'Cómo se anotan las jugadas',
        body: [
          'La lista de jugadas usa la notación WXF: la letra de la pieza (K general, A consejero, E elefante, H caballo, R carro, C cañón, P soldado), la columna en que está contada desde la derecha de quien mueve (1–9), luego + adelante, - atrás o . de lado, y la columna de llegada (o el número de puntos en las jugadas rectas): C2.5, H8+7, R1-2. Dos piezas iguales en una columna se distinguen con + (la de delante) y - (la de detrás).',
          'La opción «Notación china» muestra las mismas jugadas en chino: 炮二平五 (las rojas cuentan columnas con numerales chinos, las negras con cifras: 马８进７). La casilla de jugada acepta también coordenadas ICCS: h2e2.',
        ],
      },
    ],
    draughts: [
      {
        h: 'Cómo se mueven las piezas',
        body: [
          'Las damas se juegan en las casillas oscuras. Los peones avanzan una casilla en diagonal; el peón que llega a la última fila corona y se convierte en dama (en las internacionales y brasileñas solo si la jugada termina allí). Capturar es obligatorio, y la captura sigue mientras la pieza pueda volver a saltar: toda la secuencia es una jugada. Ninguna pieza se salta dos veces y las capturadas se retiran al terminar la jugada.',
          'Pierde quien no tiene jugada legal: sin piezas o con todas bloqueadas.',
          {
            variants: RULE_SETS,
            rows: [
              ['Modalidad', 'Tablero, empieza', 'Los peones capturan', 'Damas', 'Qué captura'],
              ['Internacionales', '10 × 10, blancas', 'adelante y atrás', 'volantes', 'la de más piezas'],
              ['Inglesas (checkers)', '8 × 8, negras', 'adelante', 'una casilla', 'libre'],
              ['Brasileñas', '8 × 8, blancas', 'adelante y atrás', 'volantes', 'la de más piezas'],
              [
                'Rusas',
                '8 × 8, blancas',
                'adelante y atrás',
                'volantes',
                'libre; el peón que corona durante una captura sigue como dama',
              ],
              [
                'Españolas',
                '8 × 8 en espejo, blancas',
                'adelante',
                'volantes',
                'la de más piezas, luego la de más damas',
              ],
              [
                'Italianas',
                '8 × 8 en espejo, blancas',
                'adelante; nunca damas',
                'una casilla',
                'más piezas, luego con dama, más damas, la que encuentra antes una dama',
              ],
            ],
          },
        ],
        pieces: true,
      },
      {
        h: 'Cómo termina la partida',
        body: [
          [
            'Pierde quien no puede mover: todas sus piezas capturadas o bloqueadas.',
            'La tercera repetición de una posición es tablas.',
            'Jugadas sin captura ni movimiento de peón terminan en tablas: 25 de cada bando (internacionales), 20 (brasileñas), 15 (rusas), 40 (inglesas, españolas, italianas).',
            'Finales especiales, internacionales: tres damas (o dos damas y un peón, o una dama y dos peones) contra una dama sola son tablas tras 16 jugadas más de cada bando; dos damas o menos contra una, tras 5. Rusas: tres damas o más contra una sola, tras 15 jugadas; cuando ambos bandos tienen damas, tras 30 jugadas (4–5 piezas) o 60 (6–7 piezas) sin captura ni coronación.',
            'El abandono, las tablas acordadas o el fin del tiempo terminan la partida; quedarse sin tiempo siempre pierde.',
          ],
        ],
      },
      {
        h: 'Cómo se anotan las jugadas',
        body: [
          'Las casillas llevan impreso su número PDN, desde el 1 en el lado contrario. Una jugada se escribe origen-destino: 32-28; una captura con x: 28x19, o con todas las casillas de llegada (26x17x8) cuando dos capturas comparten inicio y final.',
          'La casilla de jugada acepta también casillas algebraicas (c3-d4, c3:e5), como las escriben los jugadores rusos. Las posiciones se escriben en FEN de PDN: W:W21,22,K32:B1,2,3.',
        ],
      },
    ],
    chess3d: [
      {
        h: 'El tablero',
        body: [
          'Tres tableros de 8 × 8: niveles 0 (abajo), 1 y 2 (arriba). Las filas son letras A–H contadas desde el lado blanco y las columnas cifras 1–8: C4 es la fila C, columna 4, y 0-C4 esa casilla en el nivel 0. Empiezan las negras.',
          'Varias piezas no se mueven como sus homónimas del ajedrez —el alfil va en línea recta, la torre en diagonal, el rey como una dama de ajedrez— y la pieza que hay que proteger es la dama, no el rey. Por eso las piezas del tablero muestran su movimiento: flechas para los deslizamientos, puntos para los pasos, flechas rojas discontinuas para las capturas hacia atrás del peón, y un aro dorado y una corona en la dama.',
          'Un cambio de nivel sube o baja un nivel en vertical, a la misma fila y columna; nunca captura (la casilla debe estar vacía). Cada pieza tiene su propia condición para hacerlo.',
        ],
      },
      {
        h: 'Cómo se mueven las piezas',
        body: [
          'Coronación: un peón que llega a su última fila (H las blancas, A las negras) en el nivel 0 o 1 sube a una casilla vacía al azar del nivel de arriba, todavía peón; en el nivel 2 se convierte en un alfil, caballo o torre al azar, colocado en una casilla vacía al azar del nivel 0. El azar sale de la semilla de la propia partida, así que una partida guardada se reproduce igual.',
        ],
        pieces: true,
      },
      {
        h: 'Cómo termina la partida',
        body: [
          [
            'Capturar la dama contraria gana en el acto. No hay jaque ni jaque mate: el rey se captura como cualquier pieza.',
            'Las partidas por tiempo tienen un único reloj para toda la partida; cuando se agota, gana el bando con más piezas en el tablero (todos los niveles); con las mismas, tablas.',
            'Un bando sin jugadas legales: tablas. 100 jugadas (50 de cada bando) sin captura ni movimiento de peón: tablas. La misma posición por tercera vez: tablas.',
            'Abandonar pierde; se pueden acordar tablas.',
          ],
        ],
      },
      {
        h: 'Cómo se anotan las jugadas',
        body: [
          'La lista de jugadas escribe cada jugada en coordenadas: nivel y casilla de salida, nivel y casilla de llegada, 0B5-0C5; un cambio de nivel es 0A1-1A1.',
          'La casilla de jugada acepta también la forma corta: letra de la pieza, nivel y destino, P-0-C4 (P peón, A alfil, C caballo, T torre, D dama, R rey). Si varias piezas de ese tipo pueden llegar, mueve la primera en orden de lectura (nivel 0 antes que 1 y 2, fila A antes que H, columna 1 antes que 8).',
        ],
      },
    ],
  },
};
